package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Used hours of MIG devices held through ResourceClaims, worked out by hand. NVIDIA's DRA driver publishes a MIG
 * device's UUID, parent card and profile but no GPU instance id, so a DRA MIG unit reads its own instance's series
 * only once dcgm-exporter names its pod on an instance of its card with its profile; otherwise its card's activity
 * is apportioned among the card's units by fraction. Card GPU-V2 (A100, 7 slices) of node dv1, 13:00–13:01:
 * <pre>
 * v/seen holds gpu-2-mig-9-4-4 (3g.40gb, 3/7); dcgm-exporter shows pod v/seen on GPU instance 1 (3g.40gb),
 *   GR_ENGINE_ACTIVE 0.56: used = 60 s × 0.56 × 3/7 = 14.4 s = 0.004 h, from the instance's own series (the card's
 *   activity apportioned would have given it 0.5 × 3/5 = 0.3 of the card: 0.005 h)
 * u/unseen holds gpu-2-mig-14-0-2 (2g.20gb, 2/7); its instance's series names no pod: the card's GR_ENGINE_ACTIVE
 *   0.5 apportioned by fraction among the card's units (3/7 + 2/7 = 5/7): 0.5 × (2/7) / (5/7) = 0.2 of the card,
 *   under its 2/7: used = 60 s × 0.2 = 12 s = 1/300 h
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class DraMigUsageResourceTest {

    static final String DAY = "2026-10-02T";
    private static boolean sent;

    static String mig(String name, String uuid, String profile) {
        return "{\"name\":\"" + name + "\",\"attributes\":{\"type\":\"mig\",\"uuid\":\"" + uuid + "\",\"parentUUID\":\"GPU-V2\","
                + "\"profile\":\"" + profile + "\",\"productName\":\"NVIDIA A100-SXM4-80GB\"},\"capacity\":{}}";
    }

    static String pod(String ns, String name, String claim) {
        return "{\"uid\":\"" + ns + "-" + name + "\",\"namespace\":\"" + ns + "\",\"name\":\"" + name + "\",\"resourceVersion\":\"3"
                + name.length() + "\",\"type\":\"MODIFIED\",\"observedAt\":\"" + DAY + "13:01:00Z\",\"createdAt\":\"" + DAY
                + "13:00:00Z\",\"scheduledAt\":\"" + DAY + "13:00:00Z\",\"nodeName\":\"dv1\",\"allTerminated\":true,"
                + "\"lastFinishedAt\":\"" + DAY + "13:01:00Z\",\"claims\":[{\"name\":\"gpu\",\"claimName\":\"" + claim + "\"}]}";
    }

    static String claim(String ns, String name, String device, String pod) {
        return "{\"uid\":\"c-" + name + "\",\"namespace\":\"" + ns + "\",\"name\":\"" + name + "\",\"resourceVersion\":\"4" + name.length()
                + "\",\"type\":\"ADDED\",\"observedAt\":\"" + DAY + "13:00:00Z\",\"requests\":[{\"name\":\"gpu\",\"deviceClassName\":"
                + "\"mig.nvidia.com\",\"count\":1,\"adminAccess\":false}],\"allocated\":true,\"results\":[{\"request\":\"gpu\","
                + "\"driver\":\"gpu.nvidia.com\",\"pool\":\"dv1\",\"device\":\"" + device + "\"}],\"reservedFor\":[{\"resource\":"
                + "\"pods\",\"name\":\"" + pod + "\",\"uid\":\"" + ns + "-" + pod + "\"}]}";
    }

    static String sample(String scope, String key, String profile, double value, String ns, String pod) {
        return "{\"gpuUuid\":\"GPU-V2\",\"scope\":\"" + scope + "\",\"scopeKey\":\"" + key + "\",\"field\":\"GR_ENGINE_ACTIVE\","
                + "\"value\":" + value + ",\"at\":\"" + DAY + "13:00:20Z\",\"migProfile\":" + (profile == null ? "null" : "\"" + profile + "\"")
                + (pod == null ? "" : ",\"namespace\":\"" + ns + "\",\"pod\":\"" + pod + "\"") + "}";
    }

    @BeforeEach
    void sendOnce() {
        if (sent) {
            return;
        }
        sent = true;
        String facts = "{\"cluster\":\"drav\",\"namespaces\":["
                + "{\"name\":\"v\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"" + DAY + "00:00:00Z\",\"labels\":{\"gpumeter.io/tenant\":\"dra-v\"}},"
                + "{\"name\":\"u\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"" + DAY + "00:00:00Z\",\"labels\":{\"gpumeter.io/tenant\":\"dra-u\"}}],"
                + "\"nodes\":[{\"name\":\"dv1\",\"resourceVersion\":\"5\",\"type\":\"ADDED\",\"observedAt\":\"" + DAY + "00:00:00Z\","
                + "\"labels\":{},\"gpus\":[]}],"
                + "\"pods\":[" + pod("v", "seen", "seen-c") + "," + pod("u", "unseen", "unseen-c") + "],"
                + "\"resourceClaims\":[" + claim("v", "seen-c", "gpu-2-mig-9-4-4", "seen") + ","
                + claim("u", "unseen-c", "gpu-2-mig-14-0-2", "unseen") + "],"
                + "\"resourceSlices\":[{\"name\":\"dv1-gpu.nvidia.com-v7k2p\",\"resourceVersion\":\"100\",\"type\":\"ADDED\","
                + "\"observedAt\":\"" + DAY + "00:00:00Z\",\"driver\":\"gpu.nvidia.com\",\"pool\":\"dv1\",\"poolGeneration\":1,"
                + "\"nodeName\":\"dv1\",\"devices\":[" + mig("gpu-2-mig-9-4-4", "MIG-V2-3G", "3g.40gb") + ","
                + mig("gpu-2-mig-14-0-2", "MIG-V2-2G", "2g.20gb") + "]}]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        String usage = "{\"cluster\":\"drav\",\"samples\":["
                + sample("MIG_INSTANCE", "1", "3g.40gb", 0.56, "v", "seen") + ","
                + sample("MIG_INSTANCE", "5", "2g.20gb", 0.3, null, null) + ","
                + sample("DEVICE", "", null, 0.5, null, null) + "]}";
        given().contentType(ContentType.JSON).body(usage).post("/api/v1/usage").then().statusCode(200).body("podsBound", equalTo(1));
    }

    static JsonPath hours() {
        return given().queryParam("from", DAY + "00:00:00Z").queryParam("to", "2026-10-03T00:00:00Z")
                .queryParam("groupBy", "tenant").get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath()
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    static void assertHours(String expected, Object actual) {
        BigDecimal value = new BigDecimal(String.valueOf(actual));
        assertTrue(new BigDecimal(expected).subtract(value).abs().compareTo(new BigDecimal("1e-9")) < 0,
                "expected " + expected + ", got " + value);
    }

    @Test
    void aDraMigUnitTheExporterNamesReadsItsInstancesOwnSeries() {
        given().queryParam("at", DAY + "13:00:30Z").queryParam("namespace", "v").queryParam("pod", "seen")
                .get("/api/v1/occupants").then().statusCode(200)
                .body("[0].unit.migInstance", equalTo("1")).body("[0].unit.source", allOf(startsWith("dra-claim"), endsWith("+exporter-labels")));
        JsonPath json = hours();
        assertHours("0.004", json.get("find { it.key == 'dra-v' }.usedGpuHours"));
        assertEquals("MIG_INSTANCE", json.getString("find { it.key == 'dra-v' }.usageSource"), json.prettify());
    }

    @Test
    void aDraMigUnitNoExporterNamesGetsItsCardsActivityApportionedByFraction() {
        given().queryParam("at", DAY + "13:00:30Z").queryParam("namespace", "u").queryParam("pod", "unseen")
                .get("/api/v1/occupants").then().statusCode(200)
                .body("[0].unit.migInstance", nullValue()).body("[0].unit.source", allOf(startsWith("dra-claim"), not(containsString("exporter-labels"))));
        JsonPath json = hours();
        assertHours("0.0033333333333", json.get("find { it.key == 'dra-u' }.usedGpuHours"));
        assertEquals("DEVICE_BY_ALLOCATION", json.getString("find { it.key == 'dra-u' }.usageSource"), json.prettify());
    }
}
