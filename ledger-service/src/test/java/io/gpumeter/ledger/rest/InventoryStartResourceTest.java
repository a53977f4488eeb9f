package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A node is in the inventory from when it joined the cluster, not from when the collector first saw it: cluster
 * "born" (no other test writes there), every node first seen on 31 July 2026 at 00:00, worked out by hand.
 * <pre>
 * old-1     created 1 July (its status version of the same uid says so), pool label "training". Its first version
 *           registers H100s B1 and B2; one at 00:10 adds B3 (within the 15 minutes of the first sighting: it came
 *           with it); one at 01:00 adds B4 (a card added later: from its first sighting).
 * lab-old   created 10 July; registers nothing, its labels count 4 L40S.
 * other-uid registers C1; the only status version with a creation is of another uid (an earlier node of that
 *           name): no creation known for this one, so it counts from its first sighting.
 * dra-1     created 20 July; no labels, no registration: its card D1 (A100) is published in a ResourceSlice first
 *           seen at 00:10, with the first sighting.
 * capacity [1 July, 31 July): old-1 3 cards x 720 h = 2160; lab-old 4 x 21 days x 24 = 2016; dra-1 11 days x 24 = 264;
 *           other-uid nothing.
 * capacity [31 July 00:00, 02:00): old-1 B1-B3 3 x 2 = 6, B4 1 = 7; lab-old 8; other-uid 2; dra-1 2.
 * fragmentation at 15 July: old-1 as first seen (B1-B3) in pool "training", lab-old's 4 cards in pool NVIDIA-L40S;
 *           dra-1 and other-uid are not there yet. At 25 July dra-1's card too, in the pool of the model its slice
 *           publishes. At 5 July old-1 alone; at 15 June nothing.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class InventoryStartResourceTest {

    static final String CLUSTER = "born";
    static final String SIGHTING = "2026-07-31T00:00:00Z";
    private static boolean loaded;

    static String gpu(String uuid) {
        return "{\"uuid\":\"" + uuid + "\",\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":1}";
    }

    static String node(String name, String uid, String rv, String at, String labels, String gpus) {
        return "{\"name\":\"" + name + "\",\"uid\":\"" + uid + "\",\"resourceVersion\":\"" + rv + "\",\"type\":\"MODIFIED\","
                + "\"observedAt\":\"" + at + "\",\"labels\":{" + labels + "},\"gpus\":[" + gpus + "]}";
    }

    static String status(String name, String uid, String created) {
        return "{\"name\":\"" + name + "\",\"uid\":\"" + uid + "\",\"resourceVersion\":\"1\",\"type\":\"MODIFIED\",\"observedAt\":\""
                + SIGHTING + "\",\"createdAt\":\"" + created + "\",\"capacity\":{},\"allocatable\":{},\"unschedulable\":false,"
                + "\"taints\":[],\"gpuLabels\":{},\"suiteAnnotations\":{}}";
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String pool = "\"gpumeter.io/pool\":\"training\",\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\"";
        String slice = "{\"name\":\"dra-1-gpu.nvidia.com-x1\",\"resourceVersion\":\"7\",\"type\":\"ADDED\",\"observedAt\":"
                + "\"2026-07-31T00:10:00Z\",\"driver\":\"gpu.nvidia.com\",\"pool\":\"dra-1\",\"poolGeneration\":1,"
                + "\"nodeName\":\"dra-1\",\"devices\":[{\"name\":\"gpu-0\",\"attributes\":{\"type\":\"gpu\",\"uuid\":\"GPU-D1\","
                + "\"productName\":\"NVIDIA A100-SXM4-80GB\"},\"capacity\":{\"memory\":\"80Gi\"}}]}";
        String facts = "{\"cluster\":\"" + CLUSTER + "\",\"nodes\":[" + String.join(",",
                node("old-1", "u-old1", "10", SIGHTING, pool, gpu("GPU-B1") + "," + gpu("GPU-B2")),
                node("old-1", "u-old1", "11", "2026-07-31T00:10:00Z", pool, gpu("GPU-B1") + "," + gpu("GPU-B2") + "," + gpu("GPU-B3")),
                node("old-1", "u-old1", "12", "2026-07-31T01:00:00Z", pool,
                        gpu("GPU-B1") + "," + gpu("GPU-B2") + "," + gpu("GPU-B3") + "," + gpu("GPU-B4")),
                node("lab-old", "u-lab", "20", SIGHTING, "\"nvidia.com/gpu.product\":\"NVIDIA-L40S\",\"nvidia.com/gpu.count\":\"4\","
                        + "\"nvidia.com/gpu.memory\":\"46068\"", ""),
                node("other-uid", "u-new", "30", SIGHTING, "", gpu("GPU-C1")),
                node("dra-1", "u-dra", "40", SIGHTING, "", ""))
                + "],\"resourceSlices\":[" + slice + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        String statuses = "{\"cluster\":\"" + CLUSTER + "\",\"nodeStatuses\":[" + String.join(",",
                status("old-1", "u-old1", "2026-07-01T00:00:00Z"), status("lab-old", "u-lab", "2026-07-10T00:00:00Z"),
                status("other-uid", "u-gone", "2026-07-01T00:00:00Z"), status("dra-1", "u-dra", "2026-07-20T00:00:00Z")) + "]}";
        given().contentType(ContentType.JSON).body(statuses).post("/api/v1/facts/governance").then().statusCode(200);
    }

    static Map<String, BigDecimal> capacityByNode(String from, String to) {
        JsonPath json = given().queryParam("from", from).queryParam("to", to).queryParam("groupBy", "node")
                .queryParam("cluster", CLUSTER).get("/api/v1/capacity").then().statusCode(200).extract().jsonPath();
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        List<String> keys = json.getList("key");
        for (int i = 0; i < keys.size(); i++) {
            out.put(keys.get(i), new BigDecimal(json.getString("[" + i + "].cardHours")));
        }
        return out;
    }

    static JsonPath fragmentation(String at) {
        return given().queryParam("at", at).queryParam("cluster", CLUSTER).queryParam("groupBy", "pool")
                .get("/api/v1/fragmentation").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void capacityBeforeTheFirstSightingCountsFromEachNodesCreation() {
        assertEquals(Map.of("dra-1", new BigDecimal("264"), "lab-old", new BigDecimal("2016"), "old-1", new BigDecimal("2160")),
                capacityByNode("2026-07-01T00:00:00Z", SIGHTING));
        assertEquals(Map.of("dra-1", new BigDecimal("2"), "lab-old", new BigDecimal("8"), "old-1", new BigDecimal("7"),
                "other-uid", new BigDecimal("2")), capacityByNode(SIGHTING, "2026-07-31T02:00:00Z"));
        assertEquals(Map.of(), capacityByNode("2026-06-01T00:00:00Z", "2026-07-01T00:00:00Z"));
    }

    @Test
    void fragmentationBeforeTheFirstSightingHasTheNodesPools() {
        JsonPath mid = fragmentation("2026-07-15T00:00:00Z");
        assertEquals(List.of(CLUSTER + "/NVIDIA-L40S", CLUSTER + "/training"), mid.getList("groups.key"));
        assertEquals("training", mid.getString("groups[1].group.pool"));
        assertEquals(List.of(4, 3), mid.getList("groups.memory.cards", Integer.class));
        JsonPath late = fragmentation("2026-07-25T00:00:00Z");
        assertEquals(List.of(CLUSTER + "/NVIDIA A100-SXM4-80GB", CLUSTER + "/NVIDIA-L40S", CLUSTER + "/training"),
                late.getList("groups.key"));
        assertEquals(List.of(1, 4, 3), late.getList("groups.memory.cards", Integer.class));
        assertEquals(List.of(CLUSTER + "/training"), fragmentation("2026-07-05T00:00:00Z").getList("groups.key"));
        assertEquals(List.of(), fragmentation("2026-06-15T00:00:00Z").getList("groups"));
    }
}
