package io.gpumeter.e2e;

import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import io.restassured.response.Response;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Allocated and used GPU-hours per team for a week, from a replayed cluster plus dcgm-exporter scrapes, in both
 * the ledger's API and the billing CSV. Worked out by hand: team "vision" holds one whole A100 (no UUID in the pod
 * object) from Monday 2026-06-01 10:00 to 11:00; the exporter's pod labels name the card GPU-E2E-1 and report
 * SM_ACTIVE 0.5 every minute of that hour. Allocated 1 h, used 0.5 h, idle 0.5 h; at the A100-80GB rate of 3.00
 * the allocated cost is 3.00 and the used (showback) cost 1.50.
 */
@ExtendWith(UsageEndToEndTest.StartSuite.class)
class UsageEndToEndTest {

    static Suite suite;

    /** Starts (once) the suite shared by the end-to-end tests. */
    static final class StartSuite implements BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) {
            suite = SuiteExtension.suite(context);
        }
    }

    static String url(Service service, String path) {
        return suite.url(service).resolve(path).toString();
    }

    static String event(String type, String object) {
        return "{\"type\":\"" + type + "\",\"object\":" + object + "}";
    }

    @BeforeAll
    static void replayAndScrape() {
        String namespace = "{\"kind\":\"Namespace\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"ml-train\",\"uid\":\"ns-ml\","
                + "\"resourceVersion\":\"1\",\"labels\":{\"gpumeter.io/tenant\":\"hooli\",\"gpumeter.io/team\":\"vision\"}}}";
        String node = "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"a100-e2e\",\"uid\":\"n-e2e\",\"resourceVersion\":\"2\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\",\"nvidia.com/gpu.memory\":\"81920\"}}}";
        String pod = "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"trainer\",\"namespace\":\"ml-train\",\"uid\":\"pod-e2e\","
                + "\"resourceVersion\":\"%s\"},\"spec\":{\"nodeName\":\"a100-e2e\",\"containers\":[{\"name\":\"main\",\"resources\":"
                + "{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]},\"status\":{\"phase\":\"%s\",\"conditions\":[{\"type\":\"PodScheduled\","
                + "\"status\":\"True\",\"lastTransitionTime\":\"2026-06-01T10:00:00Z\"}],\"containerStatuses\":[{\"name\":\"main\","
                + "\"state\":%s}]}}";
        String stream = String.join("\n", event("ADDED", namespace), event("ADDED", node),
                event("MODIFIED", String.format(pod, "3", "Running", "{\"running\":{\"startedAt\":\"2026-06-01T10:00:01Z\"}}")),
                event("MODIFIED", String.format(pod, "4", "Succeeded",
                        "{\"terminated\":{\"exitCode\":0,\"finishedAt\":\"2026-06-01T11:00:00Z\"}}"))) + "\n";
        given().contentType("application/x-ndjson").body(stream.getBytes(StandardCharsets.UTF_8)).queryParam("cluster", "usage-e2e")
                .post(url(Service.COLLECTOR, "/api/v1/ingest/kubernetes")).then().statusCode(200).body("accepted", equalTo(4));
        // One scrape a minute, each series once per scrape as the exposition format wants; every scrape sent
        // twice, and the second copy counts nothing.
        long start = Instant.parse("2026-06-01T10:00:30Z").toEpochMilli();
        for (int minute = 0; minute < 60; minute++) {
            String scrape = "# TYPE DCGM_FI_PROF_SM_ACTIVE gauge\n"
                    + "DCGM_FI_PROF_SM_ACTIVE{gpu=\"0\",UUID=\"GPU-E2E-1\",pod=\"trainer\",namespace=\"ml-train\",container=\"main\","
                    + "Hostname=\"a100-e2e\"} 0.5 " + (start + minute * 60_000L) + "\n";
            for (int push = 0; push < 2; push++) {
                given().contentType("text/plain").body(scrape).queryParam("node", "a100-e2e").queryParam("cluster", "usage-e2e")
                        .post(url(Service.COLLECTOR, "/api/v1/ingest/dcgm")).then().statusCode(200)
                        .body("accepted", equalTo(push == 0 ? 1 : 0));
            }
        }
    }

    @Test
    void theLedgerReportsAllocatedUsedAndIdleHoursPerTeam() {
        JsonPath json = given().queryParam("from", "2026-06-01T00:00:00Z").queryParam("to", "2026-06-08T00:00:00Z")
                .queryParam("groupBy", "cluster,team").get(url(Service.LEDGER, "/api/v1/gpu-hours")).then().statusCode(200)
                .extract().jsonPath().using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        Map<String, Object> row = json.getMap("find { it.key == 'usage-e2e/vision' }");
        assertEquals(0, new BigDecimal("1").compareTo(new BigDecimal(row.get("allocatedGpuHours").toString())), row.toString());
        assertEquals(0, new BigDecimal("0.5").compareTo(new BigDecimal(row.get("usedGpuHours").toString())), row.toString());
        assertEquals(0, new BigDecimal("0.5").compareTo(new BigDecimal(row.get("idleGpuHours").toString())), row.toString());
        assertEquals("SM_ACTIVE", row.get("activityMetric"));
        assertEquals("HIGH", row.get("usageConfidence"));
        given().queryParam("at", "2026-06-01T10:30:00Z").get(url(Service.LEDGER, "/api/v1/gpus/GPU-E2E-1/occupants"))
                .then().statusCode(200).body("pod", equalTo(List.of("trainer")));
    }

    @Test
    void theWeeklyCsvCarriesUsedAndIdleAsShowback() throws IOException {
        Response response = given().queryParam("week", "2026-W23").queryParam("groupBy", "team").queryParam("format", "csv")
                .get(url(Service.BILLING, "/api/v1/reports/weekly"));
        response.then().statusCode(200);
        List<CSVRecord> records = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(new StringReader(response.asString())).getRecords();
        CSVRecord vision = records.stream().filter(r -> r.get("team").equals("vision")).findFirst().orElseThrow();
        assertEquals("1.000000", vision.get("allocated_gpu_hours"));
        assertEquals("3.00", vision.get("allocated_cost"));
        assertEquals("0.500000", vision.get("used_gpu_hours_showback"));
        assertEquals("0.500000", vision.get("idle_gpu_hours_showback"));
        assertEquals("1.50", vision.get("used_cost_showback"));
        assertEquals("1.50", vision.get("idle_cost_showback"));
    }
}
