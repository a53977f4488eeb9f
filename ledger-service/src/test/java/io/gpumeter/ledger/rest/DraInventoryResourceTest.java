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
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Cards known only from the ResourceSlices of NVIDIA's DRA driver are part of the inventory, worked out by hand.
 * Node dq1 (seen from 00:00, no GPU labels, no HAMi registration: the DRA driver runs there instead of the device
 * plugin) publishes in one slice, seen from 06:00: gpu-0 (GPU-Q0) and gpu-1 (GPU-Q1), whole A100 80GB cards of
 * "80Gi" (81920 MiB), and gpu-2 (GPU-Q2) in MIG mode, known from its four MIG devices alone (3g, 2g and two 1g).
 * From 10:00 pods hold gpu-0 whole and the 3g.40gb, 2g.20gb and one 1g.10gb device of gpu-2 through claims.
 * <pre>
 * fragmentation at 12:00 (shapes 10, 20, 30 GiB weighed equally; MIG profiles 2g, 3g):
 *   memory: GPU-Q0 held whole -> free 0; GPU-Q1 untouched -> free 81920: stranded 10: 81920 mod 10240 = 0,
 *     20: 81920 mod 20480 = 0, 30: 81920 mod 30720 = 20480; 2 cards, free 81920, ratios 0, 0, 0.25,
 *     overall (0 + 0 + 20480) / (3 × 81920) = 0.083333
 *   MIG: GPU-Q2, 7 slices - 3 - 2 - 1 = 1 free, which no 2g or 3g fits: 1 stranded, ratio 1
 *   pool: no pool label, no feature-discovery model: the model the slice publishes, NVIDIA A100-SXM4-80GB
 * capacity over 2026-10-01: three cards from 06:00 (first seen in the slice) to 24:00 = 3 × 18 = 54 card-hours
 * </pre>
 * Before the slice (05:00) the node has no card: nothing to measure.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class DraInventoryResourceTest {

    static final String DAY = "2026-10-01T";
    static final String CLUSTER = "draq";
    private static boolean sent;

    static String card(String name, String uuid) {
        return "{\"name\":\"" + name + "\",\"attributes\":{\"type\":\"gpu\",\"uuid\":\"" + uuid + "\","
                + "\"productName\":\"NVIDIA A100-SXM4-80GB\"},\"capacity\":{\"memory\":\"80Gi\"}}";
    }

    static String mig(String name, String uuid, String profile, String memory) {
        return "{\"name\":\"" + name + "\",\"attributes\":{\"type\":\"mig\",\"uuid\":\"" + uuid + "\",\"parentUUID\":\"GPU-Q2\","
                + "\"profile\":\"" + profile + "\",\"productName\":\"NVIDIA A100-SXM4-80GB\"},\"capacity\":{\"memory\":\"" + memory + "\"}}";
    }

    static String pod(String name, String claim) {
        return "{\"uid\":\"q-" + name + "\",\"namespace\":\"q\",\"name\":\"" + name + "\",\"resourceVersion\":\"1" + name.length()
                + "\",\"type\":\"ADDED\",\"observedAt\":\"" + DAY + "10:00:00Z\",\"createdAt\":\"" + DAY + "10:00:00Z\","
                + "\"scheduledAt\":\"" + DAY + "10:00:00Z\",\"nodeName\":\"dq1\",\"claims\":[{\"name\":\"gpu\",\"claimName\":\"" + claim + "\"}]}";
    }

    static String claim(String name, String device, String pod) {
        return "{\"uid\":\"c-" + name + "\",\"namespace\":\"q\",\"name\":\"" + name + "\",\"resourceVersion\":\"2" + name.length() + "\","
                + "\"type\":\"ADDED\",\"observedAt\":\"" + DAY + "10:00:00Z\",\"requests\":[{\"name\":\"gpu\",\"deviceClassName\":\""
                + (device.contains("mig") ? "mig" : "gpu") + ".nvidia.com\",\"count\":1,\"adminAccess\":false}],\"allocated\":true,"
                + "\"results\":[{\"request\":\"gpu\",\"driver\":\"gpu.nvidia.com\",\"pool\":\"dq1\",\"device\":\"" + device + "\"}],"
                + "\"reservedFor\":[{\"resource\":\"pods\",\"name\":\"" + pod + "\",\"uid\":\"q-" + pod + "\"}]}";
    }

    @BeforeEach
    void sendOnce() {
        if (sent) {
            return;
        }
        sent = true;
        String slice = "{\"name\":\"dq1-gpu.nvidia.com-q8z2k\",\"resourceVersion\":\"100\",\"type\":\"ADDED\",\"observedAt\":\""
                + DAY + "06:00:00Z\",\"driver\":\"gpu.nvidia.com\",\"pool\":\"dq1\",\"poolGeneration\":1,\"nodeName\":\"dq1\","
                + "\"devices\":[" + String.join(",", card("gpu-0", "GPU-Q0"), card("gpu-1", "GPU-Q1"),
                mig("gpu-2-mig-9-4-4", "MIG-Q2-3G", "3g.40gb", "40192Mi"), mig("gpu-2-mig-14-0-2", "MIG-Q2-2G", "2g.20gb", "19968Mi"),
                mig("gpu-2-mig-19-2-1", "MIG-Q2-1GA", "1g.10gb", "9728Mi"), mig("gpu-2-mig-19-3-1", "MIG-Q2-1GB", "1g.10gb", "9728Mi"))
                + "]}";
        String facts = "{\"cluster\":\"" + CLUSTER + "\","
                + "\"namespaces\":[{\"name\":\"q\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"" + DAY + "00:00:00Z\","
                + "\"labels\":{\"gpumeter.io/tenant\":\"dra-q\"}}],"
                + "\"nodes\":[{\"name\":\"dq1\",\"resourceVersion\":\"5\",\"type\":\"ADDED\",\"observedAt\":\"" + DAY + "00:00:00Z\","
                + "\"labels\":{\"kubernetes.io/hostname\":\"dq1\"},\"gpus\":[]}],"
                + "\"pods\":[" + String.join(",", pod("whole", "whole-c"), pod("three", "three-c"), pod("two", "two-c"),
                pod("one", "one-c")) + "],"
                + "\"resourceClaims\":[" + String.join(",", claim("whole-c", "gpu-0", "whole"),
                claim("three-c", "gpu-2-mig-9-4-4", "three"), claim("two-c", "gpu-2-mig-14-0-2", "two"),
                claim("one-c", "gpu-2-mig-19-2-1", "one")) + "],"
                + "\"resourceSlices\":[" + slice + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
    }

    static JsonPath fragmentation(String at, String groupBy) {
        return given().queryParam("at", at).queryParam("cluster", CLUSTER).queryParam("groupBy", groupBy)
                .get("/api/v1/fragmentation").then().statusCode(200).extract().jsonPath()
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    static void assertDecimal(String expected, Object actual) {
        assertEquals(0, new BigDecimal(expected).compareTo(new BigDecimal(String.valueOf(actual))),
                "expected " + expected + ", got " + actual);
    }

    @Test
    void fragmentationCountsTheCardsTheSlicePublishes() {
        JsonPath json = fragmentation(DAY + "12:00:00Z", "fleet");
        assertEquals(2, json.getInt("groups[0].memory.cards"), json.prettify());
        assertDecimal("81920", json.get("groups[0].memory.freeMiB"));
        assertDecimal("0", json.get("groups[0].memory.shapes[0].strandedMiB"));
        assertDecimal("0", json.get("groups[0].memory.shapes[1].strandedMiB"));
        assertDecimal("20480", json.get("groups[0].memory.shapes[2].strandedMiB"));
        assertDecimal("0.25", json.get("groups[0].memory.shapes[2].ratio"));
        assertDecimal("0.083333", json.get("groups[0].memory.overall"));
        assertEquals(1, json.getInt("groups[0].mig.cards"));
        assertEquals(1, json.getInt("groups[0].mig.freeSlices"));
        assertEquals(1, json.getInt("groups[0].mig.strandedSlices"));
        assertDecimal("1", json.get("groups[0].mig.ratio"));

        JsonPath pools = fragmentation(DAY + "12:00:00Z", "pool");
        assertEquals(List.of(CLUSTER + "/NVIDIA A100-SXM4-80GB"), pools.getList("groups.key"), pools.prettify());
    }

    @Test
    void beforeTheSliceTheNodeHasNoCard() {
        JsonPath json = fragmentation(DAY + "05:00:00Z", "fleet");
        List<Object> groups = json.getList("groups");
        int cards = groups.isEmpty() ? 0 : json.getInt("groups[0].memory.cards") + json.getInt("groups[0].mig.cards");
        assertEquals(0, cards, json.prettify());
    }

    @Test
    void capacityCountsThemFromTheSlicesFirstSighting() {
        for (String groupBy : List.of("node", "model")) {
            JsonPath json = given().queryParam("from", DAY + "00:00:00Z").queryParam("to", "2026-10-02T00:00:00Z")
                    .queryParam("groupBy", groupBy).queryParam("cluster", CLUSTER)
                    .get("/api/v1/capacity").then().statusCode(200).extract().jsonPath();
            assertEquals(List.of(groupBy.equals("node") ? "dq1" : "NVIDIA A100-SXM4-80GB"), json.getList("key"), json.prettify());
            assertDecimal("54", json.getString("[0].cardHours"));
        }
    }
}
