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
import java.io.InputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * GPUs held through Dynamic Resource Allocation, end to end: NVIDIA's DRA driver's objects and the pods using them
 * replayed through the collector, answered by Q1, GPU-hours (used hours from the card's dcgm series) and the
 * monthly report. Worked out by hand from the stream (2026-10-01, node dra-n1, four A100-SXM4-80GB):
 * <pre>
 * w/whole  gpu-0 (…0000) through a claim from a template  10:00–12:00   2 h        tenant dra-w
 * w/mon    gpu-0 with admin access, admitted in w         monitoring    0 h
 * m/mig    3g.40gb MIG device of gpu-1 (…0001)            10:00–13:30   3.5 × 3/7 = 1.5 h   dra-m
 * s/s1     gpu-2 (…0002), one claim shared with s2        10:00–14:00   1 + ½ + 2 = 3.5 h   dra-s
 * s/s2     the same claim                                 11:00–12:00   ½ h
 * d/del    gpu-3 (…0003); the claim's deletion asked at 10:30, the pod ends 11:00:  1 h   dra-d
 * </pre>
 * gpu-0 is fully busy (SM_ACTIVE 1) for six minutes from 10:00: 0.1 h used. At 3.00 per A100 hour the month costs
 * dra-w 6.00, dra-m 4.50, dra-s 12.00, dra-d 3.00.
 */
@ExtendWith(DraClaimsEndToEndTest.StartSuite.class)
class DraClaimsEndToEndTest {

    static final String CLUSTER = "dra-e2e";
    static final String CARD = "GPU-5c1b7a5e-0d1f-4c57-9b59-2f1c1e0d00";
    static Suite suite;

    /** Starts (once) the suite shared by the end-to-end tests. */
    static final class StartSuite implements BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) {
            suite = SuiteExtension.suite(context);
        }
    }

    @BeforeAll
    static void replay() throws IOException {
        byte[] stream;
        try (InputStream in = DraClaimsEndToEndTest.class.getResourceAsStream("/e2e/dra/nvidia-dra-stream.ndjson")) {
            stream = in.readAllBytes();
        }
        given().contentType("application/x-ndjson").body(stream).queryParam("cluster", CLUSTER)
                .post(url(Service.COLLECTOR, "/api/v1/ingest/kubernetes")).then().statusCode(200)
                .body("accepted", equalTo(28)).body("skipped", equalTo(0));
        long start = Instant.parse("2026-10-01T10:00:30Z").toEpochMilli();
        for (int minute = 0; minute < 6; minute++) {
            String scrape = "# TYPE DCGM_FI_PROF_SM_ACTIVE gauge\n"
                    + "DCGM_FI_PROF_SM_ACTIVE{gpu=\"0\",UUID=\"" + CARD + "00\",pod=\"whole\",namespace=\"w\",container=\"ctr0\","
                    + "Hostname=\"dra-n1\"} 1 " + (start + minute * 60_000L) + "\n";
            given().contentType("text/plain").body(scrape).queryParam("node", "dra-n1").queryParam("cluster", CLUSTER)
                    .post(url(Service.COLLECTOR, "/api/v1/ingest/dcgm")).then().statusCode(200);
        }
    }

    @Test
    void q1NamesTheClaimedCardsAndTheirShares() {
        assertEquals(List.of("whole"), occupants("00", "2026-10-01T11:30:00Z").getList("pod"), "admin access holds nothing");
        JsonPath mig = occupants("01", "2026-10-01T12:00:00Z");
        assertEquals(List.of("mig"), mig.getList("pod"));
        assertEquals("3g.40gb", mig.getString("[0].unit.migProfile"));
        JsonPath shared = occupants("02", "2026-10-01T11:15:00Z");
        assertEquals(List.of("s1", "s2"), shared.getList("pod", String.class).stream().sorted().toList());
        assertEquals(0, new BigDecimal("0.5").compareTo(new BigDecimal(shared.getString("[0].fraction"))));
        assertEquals(List.of("del"), occupants("03", "2026-10-01T10:59:59Z").getList("pod"), "a deletion request ends nothing");
        assertEquals(List.of(), occupants("03", "2026-10-01T11:00:00Z").getList("pod"));
    }

    @Test
    void gpuHoursCountTheClaimsAndUsedHoursReadTheCardsSeries() {
        JsonPath json = given().queryParam("from", "2026-10-01T00:00:00Z").queryParam("to", "2026-10-02T00:00:00Z")
                .queryParam("groupBy", "cluster,namespace").get(url(Service.LEDGER, "/api/v1/gpu-hours")).then().statusCode(200)
                .extract().jsonPath().using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        Map<String, String> expected = Map.of("w", "2", "m", "1.5", "s", "4", "d", "1");
        expected.forEach((ns, hours) -> assertEquals(0, new BigDecimal(hours).compareTo(new BigDecimal(
                json.getString("find { it.key == '" + CLUSTER + "/" + ns + "' }.allocatedGpuHours")).setScale(6,
                java.math.RoundingMode.HALF_EVEN)), ns));
        assertEquals(0, new BigDecimal("0.1").compareTo(new BigDecimal(
                json.getString("find { it.key == '" + CLUSTER + "/w' }.usedGpuHours"))));
    }

    @Test
    void theMonthlyReportBillsTheClaimedHours() throws IOException {
        Response response = given().queryParam("month", "2026-10").queryParam("format", "csv")
                .get(url(Service.BILLING, "/api/v1/reports/monthly"));
        response.then().statusCode(200);
        List<CSVRecord> records = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(new StringReader(response.asString())).getRecords();
        Map<String, List<String>> rows = new TreeMap<>();
        records.forEach(r -> rows.put(r.get("tenant"), List.of(r.get("allocated_gpu_hours"), r.get("allocated_cost"))));
        assertEquals(List.of("2.000000", "6.00"), rows.get("dra-w"));
        assertEquals(List.of("1.500000", "4.50"), rows.get("dra-m"));
        assertEquals(List.of("4.000000", "12.00"), rows.get("dra-s"));
        assertEquals(List.of("1.000000", "3.00"), rows.get("dra-d"));
    }

    static JsonPath occupants(String card, String at) {
        return given().queryParam("at", at).get(url(Service.LEDGER, "/api/v1/gpus/" + CARD + card + "/occupants"))
                .then().statusCode(200).extract().jsonPath().using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    static String url(Service service, String path) {
        return suite.url(service).resolve(path).toString();
    }
}
