package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.gpumeter.ledger.rest.UsedHoursResourceTest.assertHours;
import static io.gpumeter.ledger.rest.UsedHoursResourceTest.ns;
import static io.gpumeter.ledger.rest.UsedHoursResourceTest.pod;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * GPU-hours per day, week and month, split exactly at the seams of a time zone, each figure worked out by hand:
 * <pre>
 * night (tenant bnight): whole card GPU-BN held 3 Aug 2026 23:30Z to 4 Aug 00:45Z; SM_ACTIVE 0.6 in the minute 23:59,
 *   0.3 in the minute 00:00. UTC days: 3 Aug 0.5 h allocated, 36 s = 0.01 h used; 4 Aug 0.75 h, 18 s = 0.005 h.
 *   Berlin (UTC+2 in August): both minutes and the whole 1.25 h fall on 4 Aug (01:30 to 02:45 local).
 * dst (tenant bdst): whole card GPU-BD held 24 Oct 2026 21:00Z to 26 Oct 00:00Z, 27 h. Berlin's clocks go back on
 *   Sunday 25 Oct, a 25-hour day [24 Oct 22:00Z, 25 Oct 23:00Z): 24 Oct 1 h, 25 Oct 25 h, 26 Oct 1 h. Weeks start
 *   Monday: 2026-W43 (to Sunday the 25th) 26 h, 2026-W44 1 h. UTC days: 24 Oct 3 h, 25 Oct 24 h.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class BucketedGpuHoursResourceTest {

    private static boolean loaded;

    static String sample(String gpu, double value, String at, String ns, String pod) {
        return "{\"gpuUuid\":\"" + gpu + "\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"SM_ACTIVE\",\"value\":" + value
                + ",\"at\":\"" + at + "\",\"namespace\":\"" + ns + "\",\"pod\":\"" + pod + "\"}";
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String facts = "{\"cluster\":\"buckets\",\"namespaces\":[" + ns("bnight") + "," + ns("bdst") + "],"
                + "\"nodes\":[{\"name\":\"n1\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-08-01T00:00:00Z\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\",\"nvidia.com/gpu.memory\":\"81920\"}}],\"pods\":["
                + pod("bnight-1", "bnight", "2026-08-03T23:30:00Z", "2026-08-04T00:45:00Z", "{\"nvidia.com/gpu\":1}", "[]") + ","
                + pod("bdst-1", "bdst", "2026-10-24T21:00:00Z", "2026-10-26T00:00:00Z", "{\"nvidia.com/gpu\":1}", "[]") + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        String usage = "{\"cluster\":\"buckets\",\"samples\":["
                + sample("GPU-BN", 0.6, "2026-08-03T23:59:10Z", "bnight", "bnight-1") + ","
                + sample("GPU-BN", 0.3, "2026-08-04T00:00:20Z", "bnight", "bnight-1") + ","
                + sample("GPU-BD", 0.0, "2026-10-25T12:00:00Z", "bdst", "bdst-1") + "]}";
        given().contentType(ContentType.JSON).body(usage).post("/api/v1/usage").then().statusCode(200);
    }

    private static JsonPath hours(String from, String to, String groupBy, String tenant, String zone) {
        var request = given().queryParam("from", from).queryParam("to", to).queryParam("groupBy", groupBy);
        if (tenant != null) {
            request = request.queryParam("tenant", tenant);
        }
        if (zone != null) {
            request = request.queryParam("timeZone", zone);
        }
        return request.get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath();
    }

    private static Map<String, BigDecimal> field(JsonPath json, String field) {
        Map<String, BigDecimal> out = new TreeMap<>();
        List<String> keys = json.getList("key");
        for (int i = 0; i < keys.size(); i++) {
            out.put(keys.get(i), new BigDecimal(json.getString("[" + i + "]." + field)));
        }
        return out;
    }

    @Test
    void aPodAcrossMidnightIsSplitAtMidnightOfTheZone() {
        JsonPath utc = hours("2026-08-01T00:00:00Z", "2026-09-01T00:00:00Z", "tenant,day", "bnight", null);
        Map<String, BigDecimal> allocated = field(utc, "allocatedGpuHours");
        Map<String, BigDecimal> used = field(utc, "usedGpuHours");
        assertEquals(List.of("bnight/2026-08-03", "bnight/2026-08-04"), List.copyOf(allocated.keySet()));
        assertHours("0.5", allocated.get("bnight/2026-08-03"));
        assertHours("0.75", allocated.get("bnight/2026-08-04"));
        assertHours("0.01", used.get("bnight/2026-08-03"));
        assertHours("0.005", used.get("bnight/2026-08-04"));
        assertHours("0.49", field(utc, "idleGpuHours").get("bnight/2026-08-03"));
        assertEquals("2026-08-03", utc.getString("find { it.key == 'bnight/2026-08-03' }.group.day"));

        JsonPath berlin = hours("2026-08-01T00:00:00Z", "2026-09-01T00:00:00Z", "tenant,day", "bnight", "Europe/Berlin");
        assertEquals(List.of("bnight/2026-08-04"), List.copyOf(field(berlin, "allocatedGpuHours").keySet()));
        assertHours("1.25", field(berlin, "allocatedGpuHours").get("bnight/2026-08-04"));
        assertHours("0.015", field(berlin, "usedGpuHours").get("bnight/2026-08-04"));

        JsonPath month = hours("2026-08-01T00:00:00Z", "2026-09-01T00:00:00Z", "tenant,month", "bnight", null);
        assertHours("1.25", field(month, "allocatedGpuHours").get("bnight/2026-08"));
        assertHours("0.015", field(month, "usedGpuHours").get("bnight/2026-08"));
    }

    @Test
    void aDayWithAClockChangeHasItsOwnLength() {
        JsonPath days = hours("2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z", "day,tenant", "bdst", "Europe/Berlin");
        Map<String, BigDecimal> allocated = field(days, "allocatedGpuHours");
        assertEquals(List.of("2026-10-24/bdst", "2026-10-25/bdst", "2026-10-26/bdst"), List.copyOf(allocated.keySet()));
        assertHours("1", allocated.get("2026-10-24/bdst"));
        assertHours("25", allocated.get("2026-10-25/bdst"));
        assertHours("1", allocated.get("2026-10-26/bdst"));

        Map<String, BigDecimal> weeks = field(hours("2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z", "tenant,week", "bdst",
                "Europe/Berlin"), "allocatedGpuHours");
        assertEquals(List.of("bdst/2026-W43", "bdst/2026-W44"), List.copyOf(weeks.keySet()));
        assertHours("26", weeks.get("bdst/2026-W43"));
        assertHours("1", weeks.get("bdst/2026-W44"));

        Map<String, BigDecimal> utc = field(hours("2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z", "tenant,day", "bdst", "UTC"),
                "allocatedGpuHours");
        assertEquals(Map.of("bdst/2026-10-24", new BigDecimal("3"), "bdst/2026-10-25", new BigDecimal("24")),
                Map.of("bdst/2026-10-24", utc.get("bdst/2026-10-24").stripTrailingZeros().setScale(0),
                        "bdst/2026-10-25", utc.get("bdst/2026-10-25").stripTrailingZeros().setScale(0)));
    }

    @Test
    void bucketsClipToTheWindowAndAddUpToTheWindowsHours() {
        // [25 Oct 12:00Z, 26 Oct 12:00Z) in Berlin: 25 Oct to its end at 23:00Z 11 h, 26 Oct until the pod ends 1 h.
        Map<String, BigDecimal> days = field(hours("2026-10-25T12:00:00Z", "2026-10-26T12:00:00Z", "tenant,day", null,
                "Europe/Berlin"), "allocatedGpuHours");
        assertHours("11", days.get("bdst/2026-10-25"));
        assertHours("1", days.get("bdst/2026-10-26"));
        Map<String, BigDecimal> whole = field(hours("2026-10-25T12:00:00Z", "2026-10-26T12:00:00Z", "tenant", null, null),
                "allocatedGpuHours");
        assertHours("12", whole.get("bdst"));
    }

    @Test
    void oneBucketAndAKnownZoneOnly() {
        given().queryParam("from", "2026-10-01T00:00:00Z").queryParam("to", "2026-11-01T00:00:00Z")
                .queryParam("groupBy", "tenant,day,week").get("/api/v1/gpu-hours").then().statusCode(400)
                .body("field", equalTo("groupBy")).body("detail", containsString("one time bucket"));
        given().queryParam("from", "2026-10-01T00:00:00Z").queryParam("to", "2026-11-01T00:00:00Z")
                .queryParam("groupBy", "day").queryParam("timeZone", "Mars/Olympus").get("/api/v1/gpu-hours").then()
                .statusCode(400).body("field", equalTo("timeZone")).body("detail", containsString("Mars/Olympus"));
    }
}
