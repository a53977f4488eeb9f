package io.gpumeter.e2e;

import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.restassured.response.Response;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.BeforeAllCallback;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The spine end to end: a hand-written month of watch events replayed through the collector into the ledger,
 * answered by Q1, GPU-hours and the billing CSV. Every expected figure below is worked out by hand from the
 * stream in {@code e2e/may-2026.ndjson}:
 * <pre>
 * pod                 tenant           unit                          held (May)                          card-h
 * asr-short           initech          1 whole A100                  05-03 08:00:00 - 08:00:20 (20 s)    1/180
 * asr-train (boundary) initech         2 whole A100                  04-30 22:00 - 05-01 02:00 (2 h May)  4
 * speech-sidecar      initech          vGPU 30 cores/8192 MiB = 0.3  05-10 02:00 - 04:00                 0.6
 * vision-graceful     acme             vGPU 50/40960 = 0.5           05-10 00:00 - 06:00:10 (grace ends 06:00:30) 3.0013888…
 * vision-cores0       acme -> globex   vGPU 0 cores/20480 MiB = 0.25 05-14 00:00 - forced delete 05-16 00:00;
 *                                      of the physical 81920 MiB     relabel acme->globex at 05-15 12:00  9 | 3
 * vision-serving      globex           1 whole A100                  05-20 00:00 - still running         288
 * </pre>
 * initech 829/180 = 4.605556 h, acme 12.001389 h, globex 291 h.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(SpineEndToEndTest.StartSuite.class)
class SpineEndToEndTest {

    static final String GPU = "GPU-h100-aaaa";
    static Suite suite;
    static String stream;

    /** Starts (once) the suite shared by the end-to-end tests. */
    static final class StartSuite implements BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) {
            suite = SuiteExtension.suite(context);
        }
    }

    @BeforeAll
    static void readStream() throws IOException {
        try (InputStream in = SpineEndToEndTest.class.getResourceAsStream("/e2e/may-2026.ndjson")) {
            stream = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static String url(Service service, String path) {
        return suite.url(service).resolve(path).toString();
    }

    static Response replay(String body, String cluster) {
        return given().contentType("application/x-ndjson").body(body.getBytes(StandardCharsets.UTF_8))
                .queryParam("cluster", cluster).post(url(Service.COLLECTOR, "/api/v1/ingest/kubernetes"));
    }

    static Map<String, BigDecimal> hours(String groupBy, String from, String to) {
        List<Map<String, Object>> rows = given().queryParam("from", from).queryParam("to", to).queryParam("groupBy", groupBy)
                .get(url(Service.LEDGER, "/api/v1/gpu-hours")).then().statusCode(200).extract().jsonPath().getList("$");
        Map<String, BigDecimal> out = new TreeMap<>();
        rows.forEach(r -> out.put((String) r.get("key"), new BigDecimal(String.valueOf(r.get("allocatedGpuHours")))));
        return out;
    }

    static Map<String, BigDecimal> may(String groupBy) {
        return hours(groupBy, "2026-05-01T00:00:00Z", "2026-06-01T00:00:00Z");
    }

    static void assertHours(String expected, BigDecimal actual) {
        assertTrue(new BigDecimal(expected).subtract(actual).abs().compareTo(new BigDecimal("0.000001")) < 0,
                "expected " + expected + " h, got " + actual);
    }

    @Test
    @Order(1)
    void replayStoresEveryGpuFactAndCountsTheRest() {
        replay(stream, "lab").then().statusCode(200)
                .body("events", equalTo(35))
                .body("accepted", equalTo(33))
                .body("duplicates", equalTo(0))
                .body("skipped", equalTo(2));
    }

    @Test
    @Order(2)
    void occupantsOfTheSharedCardAtThreeInstants() {
        List<String> at0300 = given().queryParam("at", "2026-05-10T03:00:00Z")
                .get(url(Service.LEDGER, "/api/v1/gpus/" + GPU + "/occupants")).then().statusCode(200)
                .extract().jsonPath().getList("pod");
        assertEquals(List.of("vision-graceful", "speech-sidecar"), at0300);

        // Inside the 30 s grace period the pod still holds its share until its container stopped at 06:00:10.
        given().queryParam("at", "2026-05-10T06:00:05Z").get(url(Service.LEDGER, "/api/v1/gpus/" + GPU + "/occupants"))
                .then().statusCode(200).body("pod", equalTo(List.of("vision-graceful")))
                .body("[0].tenant", equalTo("acme")).body("[0].owner.kind", equalTo("Job"))
                .body("[0].unit.kind", equalTo("VGPU")).body("[0].unit.cores", equalTo(50))
                .body("[0].fraction", equalTo(0.5f)).body("[0].since", equalTo("2026-05-10T00:00:00Z"));

        given().queryParam("at", "2026-05-15T13:00:00Z").get(url(Service.LEDGER, "/api/v1/gpus/" + GPU + "/occupants"))
                .then().statusCode(200).body("pod", equalTo(List.of("vision-cores0")))
                .body("[0].tenant", equalTo("globex")).body("[0].unit.cores", equalTo(0))
                .body("[0].fraction", equalTo(0.25f)).body("[0].cluster", equalTo("lab"));

        given().queryParam("at", "2026-05-10T06:00:10Z").get(url(Service.LEDGER, "/api/v1/gpus/" + GPU + "/occupants"))
                .then().statusCode(200).body("size()", equalTo(0));
    }

    @Test
    @Order(3)
    void nodeOccupantsIncludeCardsWithoutAKnownUuid() {
        given().queryParam("at", "2026-05-25T00:00:00Z").get(url(Service.LEDGER, "/api/v1/nodes/a100-1/occupants"))
                .then().statusCode(200).body("pod", equalTo(List.of("vision-serving-7c9d5b8f4-q9w2e")))
                .body("[0].owner.kind", equalTo("Deployment")).body("[0].owner.name", equalTo("vision-serving"))
                .body("[0].unit.kind", equalTo("WHOLE")).body("[0].gpuUuid", equalTo(null));
    }

    @Test
    @Order(4)
    void allocatedGpuHoursPerTenantForTheMonth() {
        Map<String, BigDecimal> may = may("tenant");
        assertEquals(List.of("acme", "globex", "initech"), List.copyOf(may.keySet()));
        assertHours("4.6055555556", may.get("initech"));
        assertHours("12.0013888889", may.get("acme"));
        assertHours("291", may.get("globex"));
        // The boundary pod's other two hours (x 2 cards) belong to April.
        assertHours("4", hours("tenant", "2026-04-01T00:00:00Z", "2026-05-01T00:00:00Z").get("initech"));
    }

    @Test
    @Order(5)
    void monthlyCsvHeaderAndValues() throws IOException {
        Response response = given().queryParam("month", "2026-05").queryParam("format", "csv")
                .get(url(Service.BILLING, "/api/v1/reports/monthly"));
        response.then().statusCode(200);
        String disposition = response.header("Content-Disposition");
        assertTrue(disposition.startsWith("attachment") && disposition.contains("2026-05"), disposition);
        List<CSVRecord> records = CSVFormat.RFC4180.parse(new StringReader(response.asString())).getRecords();
        assertEquals(List.of("period_start", "period_end", "tenant", "gpu_models", "allocated_gpu_hours", "rate", "currency",
                "allocated_cost", "rate_card_version", "normalization_policy", "normalization_version",
                "used_gpu_hours_showback", "idle_gpu_hours_showback", "used_cost_showback", "idle_cost_showback",
                "line_type", "corrects_period", "energy_kwh", "energy_cost", "co2e_kg"),
                records.get(0).toList());
        assertEquals(4, records.size(), "one header and one row per tenant");
        // Rates of the default card: A100-80GB 3.00, H100 4.00 per normalized GPU-hour.
        Map<String, List<String>> rows = new TreeMap<>();
        records.subList(1, records.size()).forEach(r -> rows.put(r.get(2), r.toList()));
        assertRow(rows.get("acme"), "NVIDIA-H100-80GB-HBM3", "12.001389", "4.000000", "48.01");
        // initech: 4 + 1/180 A100-h x 3.00 + 0.6 H100-h x 4.00 = 865/60 = 14.4166…; effective rate 2595/829.
        assertRow(rows.get("initech"), "NVIDIA-A100-SXM4-80GB;NVIDIA-H100-80GB-HBM3", "4.605556",
                new BigDecimal(2595).divide(new BigDecimal(829), 6, RoundingMode.HALF_EVEN).toPlainString(), "14.42");
        // globex: 3 H100-h x 4.00 + 288 A100-h x 3.00 = 876.
        assertRow(rows.get("globex"), "NVIDIA-A100-SXM4-80GB;NVIDIA-H100-80GB-HBM3", "291.000000",
                new BigDecimal(876).divide(new BigDecimal(291), 6, RoundingMode.HALF_EVEN).toPlainString(), "876.00");
        for (List<String> row : rows.values()) {
            assertEquals("2026-05-01T00:00:00Z", row.get(0));
            assertEquals("2026-06-01T00:00:00Z", row.get(1));
            assertEquals("USD", row.get(6));
            assertFalse(row.get(9).isBlank(), "the normalization policy is printed");
            assertEquals("v1", row.get(10));
        }
    }

    private static void assertRow(List<String> row, String models, String hours, String rate, String cost) {
        assertEquals(models, row.get(3), row.toString());
        assertEquals(hours, row.get(4), row.toString());
        assertEquals(rate, row.get(5), row.toString());
        assertEquals(cost, row.get(7), row.toString());
    }

    @Test
    @Order(6)
    void replayingTheSameStreamChangesNothing() {
        Map<String, BigDecimal> before = may("cluster,tenant");
        replay(stream, "lab").then().statusCode(200).body("accepted", equalTo(0)).body("duplicates", equalTo(33));
        assertEquals(before, may("cluster,tenant"));
    }

    @Test
    @Order(7)
    void aCollectorRestartedHalfwayLosesNothing() {
        List<String> lines = Arrays.asList(stream.split("\n"));
        int half = lines.size() / 2;
        replay(String.join("\n", lines.subList(0, half)), "restart").then().statusCode(200);
        suite.faults().stop(Service.COLLECTOR);
        suite.faults().start(Service.COLLECTOR);
        replay(String.join("\n", lines.subList(half, lines.size())), "restart").then().statusCode(200);

        Map<String, BigDecimal> byCluster = may("cluster,tenant");
        for (String tenant : List.of("acme", "globex", "initech")) {
            assertEquals(0, byCluster.get("lab/" + tenant).compareTo(byCluster.get("restart/" + tenant)), tenant);
        }
        given().queryParam("at", "2026-05-10T03:00:00Z").get(url(Service.LEDGER, "/api/v1/gpus/" + GPU + "/occupants"))
                .then().statusCode(200).body("size()", equalTo(4));
    }

    @Test
    @Order(8)
    void badInputIsAProblemOnEveryEndpoint() {
        replay("{\"type\":\"ADDED\"}\n", "lab").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("line 1"));
        given().queryParam("at", "soon").get(url(Service.LEDGER, "/api/v1/gpus/" + GPU + "/occupants")).then()
                .statusCode(400).contentType("application/problem+json").body("field", equalTo("at"));
        given().get(url(Service.LEDGER, "/api/v1/gpus/GPU-unknown/occupants")).then()
                .statusCode(404).contentType("application/problem+json");
        given().queryParam("month", "2026-13").get(url(Service.BILLING, "/api/v1/reports/monthly")).then()
                .statusCode(400).contentType("application/problem+json").body("field", equalTo("month"));
    }
}
