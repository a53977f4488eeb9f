package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.Management;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A tenant writes its pods' annotations: HAMi grants naming another tenant's card book nothing, are kept as findings
 * in the intake's answer, the violation and reconciliation reads and on a counter, and leave the other tenant's books
 * as they are without them.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ForgedHamiGrantsResourceTest {

    static final String FROM = "2026-06-01T00:00:00Z";
    static final String TO = "2026-06-02T00:00:00Z";

    static final String NAMESPACES = """
            {"name":"victim-ns","uid":"nsv","resourceVersion":"1","type":"ADDED","observedAt":"2026-05-01T00:00:00Z",
             "labels":{"gpumeter.io/tenant":"victimco"},"labelTimes":{"gpumeter.io/tenant":"2026-04-01T00:00:00Z"}},
            {"name":"mallory-ns","uid":"nsm","resourceVersion":"1","type":"ADDED","observedAt":"2026-05-01T00:00:00Z",
             "labels":{"gpumeter.io/tenant":"mallory"},"labelTimes":{"gpumeter.io/tenant":"2026-04-01T00:00:00Z"}}""";

    static final String NODES = """
            {"name":"hami-1","uid":"n1","resourceVersion":"1","type":"ADDED","observedAt":"2026-05-01T00:00:00Z",
             "labels":{"nvidia.com/gpu.product":"NVIDIA-H100-80GB-HBM3","nvidia.com/gpu.memory":"81920"},
             "gpus":[{"uuid":"GPU-victim","model":"NVIDIA-H100-80GB-HBM3","memoryMib":81920,"cores":100,"splitCount":10},
                     {"uuid":"GPU-spare","model":"NVIDIA-H100-80GB-HBM3","memoryMib":81920,"cores":100,"splitCount":10},
                     {"uuid":"GPU-busy","model":"NVIDIA-H100-80GB-HBM3","memoryMib":40000,"cores":100,"splitCount":10}]},
            {"name":"hami-2","uid":"n2","resourceVersion":"1","type":"ADDED","observedAt":"2026-05-01T00:00:00Z",
             "labels":{"nvidia.com/gpu.product":"NVIDIA-H100-80GB-HBM3","nvidia.com/gpu.memory":"81920"},
             "gpus":[{"uuid":"GPU-mallory","model":"NVIDIA-H100-80GB-HBM3","memoryMib":81920,"cores":100,"splitCount":10}]},
            {"name":"cpu-1","uid":"n3","resourceVersion":"1","type":"ADDED","observedAt":"2026-05-01T00:00:00Z",
             "labels":{},"gpus":[]}""";

    /** The victim's own pod: a real HAMi grant on its card, 10:00 until now. */
    static final String VICTIM = pod("victim-ns", "v1", "2", "hami-1", "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":20000,"
            + "\"nvidia.com/gpucores\":50}", "GPU-victim", 20000, 50, "success", "hami-1");

    static final String FORGED = String.join(",",
            // on the card's node, asking for no GPU, scheduled by the default scheduler
            pod("mallory-ns", "m1", "2", "hami-1", "{}", "GPU-victim", 20000, 50, "success", "hami-1"),
            // on a node with no GPU at all
            pod("mallory-ns", "m2", "2", "cpu-1", "{}", "GPU-victim", 20000, 50, "success", "cpu-1"),
            // a real HAMi pod on another HAMi node, naming the victim's card
            pod("mallory-ns", "m3", "2", "hami-2", "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":10000,"
                    + "\"nvidia.com/gpucores\":20}", "GPU-victim", 10000, 20, "success", "hami-2"),
            // bound by HAMi to the spare card, then its annotation patched to name the victim's
            pod("mallory-ns", "m4", "2", "hami-1", "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":10000}", "GPU-spare",
                    10000, 0, "success", "hami-1"),
            pod("mallory-ns", "m4", "3", "hami-1", "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":10000}", "GPU-victim",
                    10000, 0, "success", "hami-1"));

    static String pod(String ns, String name, String rv, String node, String resources, String card, long memory,
                      int cores, String phase, String hamiNode) {
        return """
                {"uid":"%s","namespace":"%s","name":"%s","resourceVersion":"%s","type":"MODIFIED",
                 "observedAt":"2026-06-01T10:00:00Z","scheduledAt":"2026-06-01T10:00:00Z","nodeName":"%s",
                 "phase":"Running","schedulerName":"default-scheduler","gpuResources":%s,
                 "vgpus":[{"container":0,"uuid":"%s","type":"NVIDIA","memoryMib":%d,"cores":%d}],
                 "hamiBindPhase":"%s","hamiNode":"%s"}""".formatted("uid-" + name, ns, name, rv, node, resources,
                card, memory, cores, phase, hamiNode);
    }

    static String batch(String cluster, String pods) {
        return "{\"cluster\":\"" + cluster + "\",\"namespaces\":[" + NAMESPACES + "],\"nodes\":[" + NODES
                + "],\"pods\":[" + pods + "]}";
    }

    static JsonPath firstAnswer;
    static double countedAfterFirst;

    @BeforeEach
    void load() {
        if (firstAnswer != null) {
            return;
        }
        given().contentType(ContentType.JSON).body(batch("forge-base", VICTIM)).post("/api/v1/facts")
                .then().statusCode(200);
        firstAnswer = given().contentType(ContentType.JSON).body(batch("forge", VICTIM + "," + FORGED))
                .post("/api/v1/facts").then().statusCode(200).extract().jsonPath();
        countedAfterFirst = counted("NOT_REQUESTED");
    }

    static double counted(String check) {
        String metrics = Management.given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("gpumeter_ledger_hami_grants_unverified_total\\{check=\"" + check
                + "\"[^}]*} ([0-9.E+]+)").matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    @Test
    void theIntakeAnswersEachUnverifiedGrantWithTheCheckItFailed() {
        List<Map<String, String>> findings = firstAnswer.getList("findings");
        Map<String, String> checkByPod = new java.util.TreeMap<>();
        findings.forEach(f -> {
            assertEquals("HAMI_GRANT_UNVERIFIED", f.get("kind"));
            assertEquals("GPU-victim", f.get("gpu"));
            checkByPod.put(f.get("key").substring(0, f.get("key").indexOf(' ')), f.get("check"));
        });
        assertEquals(Map.of("mallory-ns/m1", "NOT_REQUESTED", "mallory-ns/m2", "NOT_REQUESTED",
                "mallory-ns/m3", "CARD_NOT_ON_NODE", "mallory-ns/m4", "CHANGED_AFTER_BINDING"), checkByPod);
    }

    @Test
    void theVictimsCardHoldsOnlyItsRealHolder() {
        for (String cluster : List.of("forge", "forge-base")) {
            List<String> pods = given().queryParam("at", "2026-06-01T11:00:00Z").queryParam("cluster", cluster)
                    .get("/api/v1/fleet/occupants").then().statusCode(200).extract().jsonPath()
                    .getList("findAll { it.gpuUuid == 'GPU-victim' }.pod");
            assertEquals(List.of("v1"), pods, cluster);
        }
        List<String> spare = given().queryParam("at", "2026-06-01T11:00:00Z").queryParam("cluster", "forge")
                .get("/api/v1/fleet/occupants").then().statusCode(200).extract().jsonPath()
                .getList("findAll { it.gpuUuid == 'GPU-spare' }.pod");
        assertEquals(List.of("m4"), spare, "the grant HAMi bound stays booked");
    }

    @Test
    void theVictimsHoursAreTheSameAsWithoutTheForgedPods() {
        List<Map<String, Object>> rows = given().queryParam("from", FROM).queryParam("to", "2026-06-01T12:00:00Z")
                .queryParam("groupBy", "cluster,tenant").queryParam("tenant", "victimco").get("/api/v1/gpu-hours")
                .then().statusCode(200).extract().jsonPath().getList("$");
        Map<String, Object> withForged = figures(rows, "forge/victimco");
        Map<String, Object> without = figures(rows, "forge-base/victimco");
        assertEquals(without, withForged);
        assertEquals(1.0f, ((Number) withForged.get("allocatedGpuHours")).floatValue(), 1e-6,
                "10:00-12:00 of a vGPU of half the card (50 % cores): 2 h x 0.5");
    }

    /** A row's figures without its key and group, which name the cluster. */
    static Map<String, Object> figures(List<Map<String, Object>> rows, String key) {
        Map<String, Object> row = new java.util.TreeMap<>(rows.stream().filter(r -> key.equals(r.get("key"))).findFirst()
                .orElseThrow(() -> new AssertionError(key + " in " + rows)));
        row.remove("key");
        row.remove("group");
        return row;
    }

    @Test
    void malloryIsBookedItsOwnRequestOnlyNeverTheVictimsCard() {
        List<String> malloryCards = given().queryParam("at", "2026-06-01T11:00:00Z").queryParam("cluster", "forge")
                .queryParam("tenant", "mallory").get("/api/v1/fleet/occupants").then().statusCode(200).extract()
                .jsonPath().getList("gpuUuid");
        assertTrue(!malloryCards.contains("GPU-victim"), malloryCards.toString());
        assertTrue(malloryCards.contains("GPU-spare"), malloryCards.toString());
    }

    @Test
    void theViolationReadKeepsEachFindingWithWhatItFound() {
        List<Map<String, Object>> found = given().queryParam("from", FROM).queryParam("to", TO)
                .get("/api/v1/violations").then().statusCode(200).extract().jsonPath()
                .getList("findAll { it.kind == 'HAMI_GRANT_UNVERIFIED' && it.namespace == 'mallory-ns' && it.cluster == 'forge' }");
        assertEquals(4, found.size(), found.toString());
        Map<String, Object> m3 = found.stream().filter(v -> "m3".equals(v.get("pod"))).findFirst().orElseThrow();
        assertEquals("CARD_NOT_ON_NODE", m3.get("resource"));
        assertTrue(m3.get("detail").toString().contains("hami-2"), m3.toString());
    }

    @Test
    void theReconciliationReadListsTheTenantsUnverifiedGrants() {
        List<Map<String, Object>> rows = given().queryParam("from", FROM).queryParam("to", TO)
                .queryParam("groupBy", "cluster,tenant").get("/api/v1/reconciliation").then().statusCode(200)
                .extract().jsonPath().getList("$");
        Map<String, Object> mallory = rows.stream().filter(r -> "forge/mallory".equals(r.get("key"))).findFirst()
                .orElseThrow(() -> new AssertionError(rows.toString()));
        assertEquals(4, ((List<?>) mallory.get("unverifiedGrants")).size());
        Map<String, Object> victim = rows.stream().filter(r -> "forge/victimco".equals(r.get("key"))).findFirst()
                .orElseThrow();
        assertEquals(List.of(), victim.get("unverifiedGrants"));
    }

    @Test
    void aBatchSentTwiceCountsItsFindingsOnce() {
        assertTrue(countedAfterFirst >= 2, "counted " + countedAfterFirst);
        JsonPath again = given().contentType(ContentType.JSON).body(batch("forge", VICTIM + "," + FORGED))
                .post("/api/v1/facts").then().statusCode(200).extract().jsonPath();
        assertEquals(0, again.getInt("accepted"));
        assertEquals(countedAfterFirst, counted("NOT_REQUESTED"));
    }

    @Test
    void aGrantWaitsForItsNodeAndIsBookedOnceTheNodeRegistersTheCard() {
        String waiting = pod("mallory-ns", "w1", "2", "hami-late", "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":10000}",
                "GPU-late", 10000, 0, "success", "hami-late");
        JsonPath answer = given().contentType(ContentType.JSON)
                .body("{\"cluster\":\"forge-late\",\"namespaces\":[" + NAMESPACES + "],\"pods\":[" + waiting + "]}")
                .post("/api/v1/facts").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("NODE_NOT_KNOWN"), answer.getList("findings.check"));
        assertEquals(List.of(), occupantsOf("GPU-late", "forge-late"));
        given().contentType(ContentType.JSON).body("""
                {"cluster":"forge-late","nodes":[{"name":"hami-late","uid":"n9","resourceVersion":"1","type":"ADDED",
                 "observedAt":"2026-06-01T12:00:00Z","labels":{},
                 "gpus":[{"uuid":"GPU-late","model":"NVIDIA-H100-80GB-HBM3","memoryMib":81920,"cores":100,"splitCount":10}]}]}""")
                .post("/api/v1/facts").then().statusCode(200);
        assertEquals(List.of("w1"), occupantsOf("GPU-late", "forge-late"));
        List<Object> stillWaiting = given().queryParam("from", FROM).queryParam("to", TO).get("/api/v1/violations")
                .then().statusCode(200).extract().jsonPath()
                .getList("findAll { it.kind == 'HAMI_GRANT_UNVERIFIED' && it.cluster == 'forge-late' }");
        assertEquals(List.of(), stillWaiting);
    }

    @Test
    void aCardPromisedBeyondItsRegistrationIsFlaggedPerDimension() {
        String a = pod("victim-ns", "oc1", "2", "hami-1", "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":20000,"
                + "\"nvidia.com/gpucores\":60}", "GPU-busy", 20000, 60, "success", "hami-1");
        String b = pod("victim-ns", "oc2", "2", "hami-1", "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":20000,"
                + "\"nvidia.com/gpucores\":60}", "GPU-busy", 20000, 60, "success", "hami-1");
        given().contentType(ContentType.JSON).body(batch("forge-oc", a + "," + b)).post("/api/v1/facts")
                .then().statusCode(200);
        List<Map<String, Object>> over = given().queryParam("from", FROM).queryParam("to", TO)
                .get("/api/v1/violations").then().statusCode(200).extract().jsonPath()
                .getList("findAll { it.kind == 'HAMI_OVERCOMMIT' && it.cluster == 'forge-oc' }");
        assertEquals(1, over.size(), over.toString());
        assertEquals("CORES", over.get(0).get("resource"));
        assertEquals("GPU-busy", over.get(0).get("gpuUuid"));
        assertEquals(1.2, ((Number) over.get(0).get("peakRatio")).doubleValue(), 1e-6);
    }

    @Test
    void aGrantTheDeviceSideContradictsIsRefusedOnceTheDeviceSpeaks() {
        // every check the pod's own facts allow passes: same node, registered card, within its request
        String sameNode = pod("mallory-ns", "m6", "2", "hami-1", "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":10000}",
                "GPU-victim", 10000, 0, "success", "hami-1");
        given().contentType(ContentType.JSON).body(batch("forge-device", VICTIM + "," + sameNode)).post("/api/v1/facts")
                .then().statusCode(200);
        assertEquals(java.util.Set.of("v1", "m6"), java.util.Set.copyOf(occupantsOf("GPU-victim", "forge-device")),
                "believed until the device speaks");
        // HAMi's monitor sees m6's container on the spare card
        given().contentType(ContentType.JSON).body("""
                {"cluster":"forge-device","samples":[{"gpuUuid":"GPU-spare","node":"hami-1","scope":"CONTAINER",
                 "scopeKey":"mallory-ns/m6/main","namespace":"mallory-ns","pod":"m6","container":"main",
                 "field":"VGPU_MEMORY_USED_MIB","value":4000,"at":"2026-06-01T10:30:10Z"}]}""")
                .post("/api/v1/usage").then().statusCode(200);
        assertEquals(List.of("v1"), occupantsOf("GPU-victim", "forge-device"));
        List<Map<String, Object>> refused = given().queryParam("from", FROM).queryParam("to", TO)
                .get("/api/v1/violations").then().statusCode(200).extract().jsonPath()
                .getList("findAll { it.kind == 'HAMI_GRANT_UNVERIFIED' && it.cluster == 'forge-device' }");
        assertEquals(1, refused.size(), refused.toString());
        assertEquals("DEVICE_SEES_OTHER_CARD", refused.get(0).get("resource"));
        assertTrue(refused.get(0).get("detail").toString().contains("GPU-spare"), refused.toString());
    }

    static List<String> occupantsOf(String card, String cluster) {
        return given().queryParam("at", "2026-06-01T13:00:00Z").queryParam("cluster", cluster)
                .get("/api/v1/fleet/occupants").then().statusCode(200).extract().jsonPath()
                .getList("findAll { it.gpuUuid == '" + card + "' }.pod");
    }
}
