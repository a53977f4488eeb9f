package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fleet's layout at 12:00 on a hand-made fleet (cluster "layout"), every figure worked out by hand:
 * <pre>
 * lc1  NVIDIA-L40S, counted (gpu.count 3), no pool label: pool NVIDIA-L40S
 *      w-named holds a whole card a DCGM sample names GPU-L40S-B: that card takes the first counted place;
 *      w-anon holds a whole card nobody names: the first untouched counted card takes it; one card left free
 *      -> 3 cards, 2 held, 1 free, 2 cards' worth held
 * lh1  HAMi, GPU-LH-1 and GPU-LH-2 registered, pool label "inference"
 *      a-serve (acme) 50 % cores, 40960 of 81920 MiB on GPU-LH-1 = 0.5; g-infer (globex) 25 %, 20480 MiB = 0.25
 *      -> 2 cards, 1 held, 1 free, 0.75 held
 * lm1  NVIDIA-A100-SXM4-80GB, MIG mixed, counted (1), 7 slices: m-a 3g (3/7) and m-b 2g (2/7) fill 5 slices of the
 *      one card; m-c 3g (3/7) comes last and fits nowhere: unplaced
 *      -> 1 card, 1 held, 0 free, 0.428571428571 + 0.285714285714 + 0.428571428571 = 1.142857142856 held
 * lx1  no node fact at all: x-1's whole card is the one card the units there need, known only from them
 *      -> 1 card (HELD, no UUID), 1 held, pool unknown
 * w-gone held a card on lc1 until 11:00: not there at 12:00.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class FleetLayoutResourceTest {

    private static final String AT = "2026-09-01T12:00:00Z";
    private static boolean loaded;

    private static String node(String name, String labels, String gpus) {
        return "{\"name\":\"" + name + "\",\"uid\":\"" + name + "\",\"resourceVersion\":\"1\",\"type\":\"ADDED\","
                + "\"observedAt\":\"2026-08-01T00:00:00Z\",\"labels\":{" + labels + "},\"gpus\":[" + gpus + "]}";
    }

    private static String registered(String uuid) {
        return "{\"uuid\":\"" + uuid + "\",\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":4}";
    }

    private static String pod(String namespace, String name, String node, String start, String end, String resources, String vgpus) {
        return "{\"uid\":\"lay-" + name + "\",\"namespace\":\"" + namespace + "\",\"name\":\"" + name + "\",\"resourceVersion\":\"2\","
                + "\"type\":\"MODIFIED\",\"observedAt\":\"2026-09-01T" + (end == null ? start : end) + ":00Z\","
                + "\"scheduledAt\":\"2026-09-01T" + start + ":00Z\",\"nodeName\":\"" + node + "\""
                + (end == null ? "" : ",\"allTerminated\":true,\"lastFinishedAt\":\"2026-09-01T" + end + ":00Z\"")
                + ",\"gpuResources\":" + resources + ",\"vgpus\":" + vgpus
                + ("[]".equals(vgpus) ? "" : ",\"hamiBindPhase\":\"success\",\"hamiNode\":\"" + node + "\"") + "}";
    }

    private static String vgpu(String uuid, long memory, int cores) {
        return "[{\"container\":0,\"uuid\":\"" + uuid + "\",\"type\":\"NVIDIA\",\"memoryMib\":" + memory + ",\"cores\":" + cores + "}]";
    }

    private static String namespace(String name, String tenant) {
        return "{\"name\":\"" + name + "\",\"uid\":\"lay-ns-" + name + "\",\"resourceVersion\":\"1\",\"type\":\"ADDED\","
                + "\"observedAt\":\"2026-08-01T00:00:00Z\",\"labels\":{\"gpumeter.io/tenant\":\"" + tenant + "\"},"
                + "\"labelTimes\":{\"gpumeter.io/tenant\":\"2026-08-01T00:00:00Z\"}}";
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String whole = "{\"nvidia.com/gpu\":1}";
        String facts = "{\"cluster\":\"layout\",\"namespaces\":[" + namespace("la", "acme") + "," + namespace("lg", "globex") + ","
                + namespace("lc", "initech") + "],\"nodes\":["
                + node("lc1", "\"nvidia.com/gpu.product\":\"NVIDIA-L40S\",\"nvidia.com/gpu.count\":\"3\",\"nvidia.com/gpu.memory\":\"46068\"", "") + ","
                + node("lh1", "\"gpumeter.io/pool\":\"inference\",\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\","
                + "\"nvidia.com/gpu.memory\":\"81920\"", registered("GPU-LH-1") + "," + registered("GPU-LH-2")) + ","
                + node("lm1", "\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\",\"nvidia.com/mig.strategy\":\"mixed\","
                + "\"nvidia.com/gpu.count\":\"1\"", "") + "],\"pods\":["
                + String.join(",",
                pod("lc", "w-named", "lc1", "10:00", null, whole, "[]"),
                pod("lc", "w-anon", "lc1", "10:30", null, whole, "[]"),
                pod("lc", "w-gone", "lc1", "09:00", "11:00", whole, "[]"),
                pod("la", "a-serve", "lh1", "10:00", null, "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":40960,\"nvidia.com/gpucores\":50}",
                        vgpu("GPU-LH-1", 40960, 50)),
                pod("lg", "g-infer", "lh1", "11:00", null, "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":20480,\"nvidia.com/gpucores\":25}",
                        vgpu("GPU-LH-1", 20480, 25)),
                pod("lc", "m-a", "lm1", "11:00", null, "{\"nvidia.com/mig-3g.40gb\":1}", "[]"),
                pod("lc", "m-b", "lm1", "11:10", null, "{\"nvidia.com/mig-2g.20gb\":1}", "[]"),
                pod("lc", "m-c", "lm1", "11:20", null, "{\"nvidia.com/mig-3g.40gb\":1}", "[]"),
                pod("lc", "x-1", "lx1", "11:00", null, whole, "[]"))
                + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        // dcgm-exporter saw w-named on its card: the ledger names the card of its whole-card unit
        given().contentType(ContentType.JSON).body("{\"cluster\":\"layout\",\"samples\":[{\"gpuUuid\":\"GPU-L40S-B\",\"node\":\"lc1\","
                        + "\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"SM_ACTIVE\",\"value\":0.5,\"at\":\"2026-09-01T11:00:00Z\","
                        + "\"namespace\":\"lc\",\"pod\":\"w-named\"}]}")
                .post("/api/v1/usage").then().statusCode(200).body("podsBound", equalTo(1));
    }

    private static JsonPath layout(Map<String, String> params) {
        return new JsonPath(layoutText(params)).using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    private static String layoutText(Map<String, String> params) {
        return given().queryParam("cluster", "layout").queryParam("at", AT).queryParam("layout", "true").queryParams(params)
                .get("/api/v1/fleet/occupants").then().statusCode(200).extract().asString();
    }

    private static void assertDecimal(String expected, Object actual) {
        assertEquals(0, new java.math.BigDecimal(expected).compareTo(new java.math.BigDecimal(String.valueOf(actual))),
                "expected " + expected + ", got " + actual);
    }

    @Test
    void everyNodesCardsWithWhoHeldEachAndTheUnitsNoCardNamesPlacedByTheProbesRule() {
        String answer = layoutText(Map.of());
        Contract.record("ledger", "fleet-layout", answer); // the console's Fleet page draws it
        JsonPath json = new JsonPath(answer).using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        assertEquals(AT, json.getString("at"));
        assertEquals(4, json.getInt("totalNodes"));
        assertEquals(List.of("lc1", "lh1", "lm1", "lx1"), json.getList("nodes.node"));

        assertEquals(Arrays.asList("GPU-L40S-B", null, null), json.getList("nodes[0].gpus.uuid"));
        assertEquals(List.of("COUNTED", "COUNTED", "COUNTED"), json.getList("nodes[0].gpus.source"));
        assertEquals(List.of("w-named"), json.getList("nodes[0].gpus[0].occupants.pod"));
        assertEquals(List.of("w-anon"), json.getList("nodes[0].gpus[1].occupants.pod"));
        assertEquals(List.of(), json.getList("nodes[0].gpus[2].occupants"));
        assertEquals(List.of(3, 2, 1), List.of(json.getInt("nodes[0].cards"), json.getInt("nodes[0].held"), json.getInt("nodes[0].free")));
        assertDecimal("2", json.get("nodes[0].heldFraction"));
        assertEquals("NVIDIA-L40S", json.getString("nodes[0].pool"));

        assertEquals(List.of("GPU-LH-1", "GPU-LH-2"), json.getList("nodes[1].gpus.uuid"));
        assertEquals(List.of("REGISTERED", "REGISTERED"), json.getList("nodes[1].gpus.source"));
        assertEquals(List.of("a-serve", "g-infer"), json.getList("nodes[1].gpus[0].occupants.pod"));
        assertEquals(List.of("acme", "globex"), json.getList("nodes[1].gpus[0].occupants.tenant"));
        assertDecimal("0.75", json.get("nodes[1].gpus[0].heldFraction"));
        assertEquals("inference", json.getString("nodes[1].pool"));
        assertEquals(List.of(2, 1, 1), List.of(json.getInt("nodes[1].cards"), json.getInt("nodes[1].held"), json.getInt("nodes[1].free")));

        assertEquals(Arrays.asList((Object) null), json.getList("nodes[2].gpus.uuid"));
        assertEquals(List.of("m-a", "m-b"), json.getList("nodes[2].gpus[0].occupants.pod"));
        assertEquals(List.of("MIG", "MIG"), json.getList("nodes[2].gpus[0].occupants.unit.kind"));
        assertEquals(List.of("m-c"), json.getList("nodes[2].unplaced.pod"));
        assertDecimal("1.142857142856", json.get("nodes[2].heldFraction"));
        assertEquals(List.of(1, 1, 0), List.of(json.getInt("nodes[2].cards"), json.getInt("nodes[2].held"), json.getInt("nodes[2].free")));

        assertEquals(false, json.getBoolean("nodes[3].inInventory"));
        assertEquals("unknown", json.getString("nodes[3].pool"));
        assertEquals(Arrays.asList((Object) null), json.getList("nodes[3].gpus.uuid"));
        assertEquals(List.of("HELD"), json.getList("nodes[3].gpus.source"));
        assertEquals(List.of("x-1"), json.getList("nodes[3].gpus[0].occupants.pod"));
        assertEquals(true, json.getBoolean("nodes[0].inInventory"));
    }

    @Test
    void theCardsHeldAndFreePerPoolOrModelCountEveryNodeWhateverThePage() {
        JsonPath json = layout(Map.of("limit", "2", "offset", "1"));
        assertEquals(List.of("lh1", "lm1"), json.getList("nodes.node"));
        assertEquals(4, json.getInt("totalNodes"));
        assertEquals(1, json.getInt("offset"));
        assertEquals(2, json.getInt("limit"));
        assertEquals("pool", json.getString("groupBy"));
        assertEquals(List.of("layout/NVIDIA-A100-SXM4-80GB", "layout/NVIDIA-L40S", "layout/inference", "layout/unknown"),
                json.getList("groups.key"));
        assertEquals("inference", json.getString("groups[2].group.pool"));
        assertEquals("layout", json.getString("groups[2].group.cluster"));
        assertEquals(List.of(1, 3, 2, 1), json.getList("groups.cards", Integer.class));
        assertEquals(List.of(1, 2, 1, 1), json.getList("groups.held", Integer.class));
        assertEquals(List.of(0, 1, 1, 0), json.getList("groups.free", Integer.class));
        assertEquals(List.of(1, 1, 1, 1), json.getList("groups.nodes", Integer.class));
        assertDecimal("1.142857142856", json.get("groups[0].heldFraction"));
        assertDecimal("2", json.get("groups[1].heldFraction"));
        assertDecimal("0.75", json.get("groups[2].heldFraction"));
        assertDecimal("1", json.get("groups[3].heldFraction"));

        JsonPath byModel = layout(Map.of("groupBy", "model"));
        assertEquals(List.of("layout/NVIDIA A100 SXM4 80GB", "layout/NVIDIA H100 80GB HBM3", "layout/NVIDIA L40S", "layout/unknown"),
                byModel.getList("groups.key"));
        assertEquals("NVIDIA H100 80GB HBM3", byModel.getString("groups[1].group.model"));

        // a group's row drills down to its nodes; the groups still count every node
        JsonPath inference = layout(Map.of("group", "layout/inference"));
        assertEquals(List.of("lh1"), inference.getList("nodes.node"));
        assertEquals(1, inference.getInt("totalNodes"));
        assertEquals(4, inference.getList("groups.key").size());
        JsonPath a100 = layout(Map.of("groupBy", "model", "group", "layout/NVIDIA A100 SXM4 80GB"));
        assertEquals(List.of("lm1"), a100.getList("nodes.node"));
        assertEquals(List.of("lx1"), layout(Map.of("group", "layout/unknown")).getList("nodes.node"));
        assertEquals(0, layout(Map.of("group", "other/inference")).getInt("totalNodes"));

        JsonPath one = layout(Map.of("node", "lc1"));
        assertEquals(List.of("lc1"), one.getList("nodes.node"));
        assertEquals(List.of("layout/NVIDIA-L40S"), one.getList("groups.key"));
    }

    @Test
    void theLayoutIsNeverOneTenantsOrOneNamespacesAndItsOptionsAreChecked() {
        given().queryParam("layout", "true").queryParam("tenant", "acme").get("/api/v1/fleet/occupants").then().statusCode(403)
                .contentType("application/problem+json").body("field", equalTo("tenant"));
        given().queryParam("layout", "true").queryParam("namespace", "la").get("/api/v1/fleet/occupants").then().statusCode(400)
                .body("field", equalTo("namespace"));
        given().queryParam("layout", "true").queryParam("groupBy", "rack").get("/api/v1/fleet/occupants").then().statusCode(400)
                .body("field", equalTo("groupBy"));
        given().queryParam("groupBy", "pool").get("/api/v1/fleet/occupants").then().statusCode(400).body("field", equalTo("groupBy"));
        given().queryParam("group", "layout/inference").get("/api/v1/fleet/occupants").then().statusCode(400)
                .body("field", equalTo("group"));
        given().queryParam("layout", "yes").get("/api/v1/fleet/occupants").then().statusCode(400).body("field", equalTo("layout"));
        // without layout the read is the occupants' rows, as it always was
        given().queryParam("cluster", "layout").queryParam("at", AT).queryParam("node", "lh1").get("/api/v1/fleet/occupants")
                .then().statusCode(200).body("pod", equalTo(List.of("a-serve", "g-infer")));
    }
}
