package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.governance.service.ChangeHistory;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The change book and the GPU stack's state of cluster "chg" (no other test writes there), every batch sent out of
 * order and again. T is 2025-03-03T00:00Z; worked out by hand:
 * <pre>
 * gpu-a labels   rv100 T: driver 550.54.15 (cuda.driver.major/minor/rev), CUDA 12.4, gfd.timestamp 1
 *                rv110 T+1h: gfd.timestamp 2 only                  -> nothing (a heartbeat label)
 *                rv120 T+2h: driver 560.35.03, CUDA 12.6           -> DRIVER_VERSION, CUDA_VERSION
 *                rv130 T+3h: mig.config all-disabled -> all-1g.10gb, mig.config.state (none) -> pending
 *                                                                  -> MIG_LAYOUT, NODE_LABEL mig.config.state
 *                rv140 T+3h59m: example.com/flap appears as a     -> NODE_LABEL
 *                rv141..145 T+4h+0..40s: b,a,b,a,b                 -> one NODE_LABEL a -> b, count 5
 *                rv150 T+5h: gpumeter.io/decode-frozen=true, its status marked decode-frozen-by=alert-service
 *                                                                  -> NODE_LABEL, source gpumeter alert-service: freeze-decode
 * gpu-a status   rv100 T: created T-10d, nvidia.com/gpu 8/8        -> NODE_ADDED at T-10d
 *                rv125 T+2h30m: allocatable 0; rv126 T+2h40m: 8    -> GPU_ALLOCATABLE 8->0, 0->8
 *                rv150 T+5h: suite annotation decode-frozen-by
 *                rv160 T+6h: cordoned, cordoned-by alert-service, reason "Xid 79"
 *                                                                  -> NODE_CORDONED, source gpumeter alert-service: cordon (Xid 79)
 *                rv170 T+7h: uncordoned, mark removed              -> NODE_UNCORDONED, gpumeter alert-service: uncordon
 *                rv180 T+8h: cordoned by a person                  -> NODE_CORDONED, source node status
 * device-plugin  DaemonSet rv200 T v0.14.5, rv210 T+3h v0.15.0    -> COMPONENT_VERSION (cluster-wide)
 *   pod on gpu-a nvdp-1 rv201 T ready v0.14.5; rv211 T+3h10m CrashLoopBackOff v0.15.0 restarts 3
 *                                                                  -> COMPONENT_HEALTH Ready->CrashLoopBackOff, COMPONENT_VERSION
 *                rv212 T+3h30m deleted                             -> CrashLoopBackOff->Absent
 *                nvdp-2 rv213 T+3h31m ready v0.15.0                -> Absent->Ready
 * ClusterQueue   team-a rv300 T nominal 8; rv305 T+30m reserved 4 only (nothing); rv310 T+1h nominal 16
 *                                                                  -> QUOTA clusterqueue/team-a[default]:nvidia.com/gpu
 * gpu-b          no GFD labels; nvidia-smi saw 535.104.05 from T, 550.54.15 from T+2h -> DRIVER_VERSION (nvidia-smi)
 *                deleted T+9h (uid b1), back T+10h (uid b2)        -> NODE_REMOVED, NODE_ADDED
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ChangeBookResourceTest {

    static final String CLUSTER = "chg";
    static final Instant T = Instant.parse("2025-03-03T00:00:00Z");

    static Instant t(Duration d) {
        return T.plus(d);
    }

    static Instant hours(double h) {
        return T.plus(Duration.ofSeconds((long) (h * 3600)));
    }

    static String labels(Map<String, String> labels) {
        return labels.entrySet().stream().map(e -> "\"" + e.getKey() + "\":\"" + e.getValue() + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }

    static String node(String name, String uid, int rv, String type, Instant at, Map<String, String> labels) {
        return "{\"name\":\"" + name + "\",\"uid\":\"" + uid + "\",\"resourceVersion\":\"" + rv + "\",\"type\":\"" + type
                + "\",\"observedAt\":\"" + at + "\",\"labels\":" + labels(labels) + ",\"gpus\":[]}";
    }

    static Map<String, String> gpuA(String driver, String cuda, String stamp, Map<String, String> more) {
        String[] d = driver.split("\\.");
        String[] c = cuda.split("\\.");
        Map<String, String> out = new LinkedHashMap<>();
        out.put("nvidia.com/cuda.driver.major", d[0]);
        out.put("nvidia.com/cuda.driver.minor", d[1]);
        out.put("nvidia.com/cuda.driver.rev", d[2]);
        out.put("nvidia.com/cuda.runtime.major", c[0]);
        out.put("nvidia.com/cuda.runtime.minor", c[1]);
        out.put("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB");
        out.put("nvidia.com/gpu.count", "8");
        out.put("nvidia.com/gfd.timestamp", stamp);
        out.put("nvidia.com/mig.config", "all-disabled");
        out.putAll(more);
        return out;
    }

    static final Map<String, String> MIG = Map.of("nvidia.com/mig.config", "all-1g.10gb", "nvidia.com/mig.config.state", "pending");

    static Map<String, String> with(Map<String, String> a, Map<String, String> b) {
        Map<String, String> out = new LinkedHashMap<>(a);
        out.putAll(b);
        return out;
    }

    static List<String> nodeFacts() {
        List<String> out = new ArrayList<>();
        out.add(node("gpu-a", "a1", 100, "ADDED", T, gpuA("550.54.15", "12.4", "1", Map.of())));
        out.add(node("gpu-a", "a1", 110, "MODIFIED", hours(1), gpuA("550.54.15", "12.4", "2", Map.of())));
        out.add(node("gpu-a", "a1", 120, "MODIFIED", hours(2), gpuA("560.35.03", "12.6", "3", Map.of())));
        Map<String, String> mig = with(gpuA("560.35.03", "12.6", "4", Map.of()), MIG);
        out.add(node("gpu-a", "a1", 130, "MODIFIED", hours(3), mig));
        String[] flap = {"a", "b", "a", "b", "a", "b"};
        for (int i = 0; i < flap.length; i++) {
            // The first at 03:59, the five others within the minute 04:00.
            Instant at = i == 0 ? t(Duration.ofMinutes(239)) : t(Duration.ofHours(4).plusSeconds(10L * (i - 1)));
            out.add(node("gpu-a", "a1", 140 + i, "MODIFIED", at,
                    with(mig, Map.of("example.com/flap", flap[i]))));
        }
        out.add(node("gpu-a", "a1", 150, "MODIFIED", hours(5),
                with(mig, Map.of("example.com/flap", "b", "gpumeter.io/decode-frozen", "true"))));
        out.add(node("gpu-b", "b1", 101, "ADDED", T, Map.of("kubernetes.io/hostname", "gpu-b")));
        out.add(node("gpu-b", "b1", 190, "DELETED", hours(9), Map.of("kubernetes.io/hostname", "gpu-b")));
        out.add(node("gpu-b", "b2", 195, "ADDED", hours(10), Map.of("kubernetes.io/hostname", "gpu-b")));
        return out;
    }

    static String status(int rv, Instant at, long allocatable, boolean cordoned, Map<String, String> marks) {
        return "{\"name\":\"gpu-a\",\"uid\":\"a1\",\"resourceVersion\":\"" + rv + "\",\"type\":\"MODIFIED\",\"observedAt\":\""
                + at + "\",\"createdAt\":\"" + T.minus(Duration.ofDays(10)) + "\",\"capacity\":{\"nvidia.com/gpu\":8},"
                + "\"allocatable\":{\"nvidia.com/gpu\":" + allocatable + "},\"unschedulable\":" + cordoned
                + ",\"taints\":" + (cordoned ? "[{\"key\":\"node.kubernetes.io/unschedulable\",\"effect\":\"NoSchedule\"}]" : "[]")
                + ",\"gpuLabels\":{\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\",\"nvidia.com/cuda.driver.major\":\""
                + (at.isBefore(hours(2)) ? "550" : "560") + "\"},\"suiteAnnotations\":" + labels(marks) + "}";
    }

    static final Map<String, String> FROZEN = Map.of("gpumeter.io/decode-frozen-by", "alert-service");

    static List<String> statuses() {
        return List.of(status(100, T, 8, false, Map.of()), status(125, t(Duration.ofMinutes(150)), 0, false, Map.of()),
                status(126, t(Duration.ofMinutes(160)), 8, false, Map.of()), status(150, hours(5), 8, false, FROZEN),
                status(160, hours(6), 8, true, with(FROZEN, Map.of("gpumeter.io/cordoned-by", "alert-service",
                        "gpumeter.io/cordon-reason", "Xid 79"))),
                status(170, hours(7), 8, false, FROZEN), status(180, hours(8), 8, true, FROZEN));
    }

    static String workload(int rv, Instant at, String version) {
        return "{\"namespace\":\"gpu-operator\",\"name\":\"nvidia-device-plugin-daemonset\",\"uid\":\"ds1\",\"kind\":\"DaemonSet\","
                + "\"component\":\"device-plugin\",\"resourceVersion\":\"" + rv + "\",\"type\":\"MODIFIED\",\"observedAt\":\""
                + at + "\",\"images\":[\"nvcr.io/nvidia/k8s-device-plugin:" + version + "\"]}";
    }

    static String pod(String name, int rv, String type, Instant at, String version, boolean ready, int restarts,
                      String waiting) {
        return "{\"namespace\":\"gpu-operator\",\"name\":\"" + name + "\",\"uid\":\"u-" + name + "\",\"resourceVersion\":\"" + rv
                + "\",\"type\":\"" + type + "\",\"observedAt\":\"" + at + "\",\"component\":\"device-plugin\",\"node\":\"gpu-a\","
                + "\"images\":[\"nvcr.io/nvidia/k8s-device-plugin:" + version + "\"],\"phase\":\"Running\",\"ready\":" + ready
                + ",\"restarts\":" + restarts + ",\"waitingReason\":" + (waiting == null ? "null" : "\"" + waiting + "\"") + "}";
    }

    static String queue(int rv, Instant at, int nominal, int reserved) {
        return "{\"kind\":\"CLUSTER_QUEUE\",\"name\":\"team-a\",\"uid\":\"cq1\",\"resourceVersion\":\"" + rv
                + "\",\"type\":\"MODIFIED\",\"observedAt\":\"" + at + "\",\"apiVersion\":\"kueue.x-k8s.io/v1beta1\","
                + "\"quotas\":[{\"flavor\":\"default\",\"resource\":\"nvidia.com/gpu\",\"nominal\":" + nominal
                + ",\"reserved\":" + reserved + "}]}";
    }

    static String sighting(String version, Instant at) {
        return "{\"node\":\"gpu-b\",\"gpuUuid\":\"GPU-b0\",\"version\":\"" + version + "\",\"source\":\"nvidia-smi\",\"observedAt\":\""
                + at + "\"}";
    }

    static String governance(String list, List<String> facts) {
        return "{\"cluster\":\"" + CLUSTER + "\",\"" + list + "\":[" + String.join(",", facts) + "]}";
    }

    static String facts(List<String> nodes) {
        return "{\"cluster\":\"" + CLUSTER + "\",\"nodes\":[" + String.join(",", nodes) + "]}";
    }

    static List<String> batches() {
        List<String> nodes = nodeFacts();
        List<String> st = statuses();
        List<String> out = new ArrayList<>();
        // Later versions first: the book follows the versions, not their arrival.
        out.add(facts(nodes.subList(8, nodes.size())));
        out.add(governance("nodeStatuses", st.subList(3, st.size())));
        out.add(governance("stackPods", List.of(pod("nvdp-2", 213, "ADDED", t(Duration.ofMinutes(211)), "v0.15.0", true, 0, null),
                pod("nvdp-1", 212, "DELETED", t(Duration.ofMinutes(210)), "v0.15.0", false, 3, "CrashLoopBackOff"))));
        out.add(governance("stackWorkloads", List.of(workload(210, hours(3), "v0.15.0"))));
        out.add(governance("queueObjects", List.of(queue(310, hours(1), 16, 4))));
        out.add(governance("driverSightings", List.of(sighting("550.54.15", hours(2)), sighting("550.54.15", hours(12)))));
        out.add(facts(nodes.subList(0, 8)));
        out.add(governance("nodeStatuses", st.subList(0, 3)));
        out.add(governance("stackPods", List.of(pod("nvdp-1", 201, "ADDED", T, "v0.14.5", true, 0, null),
                pod("nvdp-1", 211, "MODIFIED", t(Duration.ofMinutes(190)), "v0.15.0", false, 3, "CrashLoopBackOff"))));
        out.add(governance("stackWorkloads", List.of(workload(200, T, "v0.14.5"))));
        out.add(governance("queueObjects", List.of(queue(300, T, 8, 0), queue(305, t(Duration.ofMinutes(30)), 8, 4))));
        out.add(governance("driverSightings", List.of(sighting("535.104.05", T), sighting("535.104.05", hours(1)))));
        return out;
    }

    static void send(String batch) {
        String path = batch.contains("\"nodes\"") ? "/api/v1/facts" : "/api/v1/facts/governance";
        given().contentType(ContentType.JSON).body(batch).post(path).then().statusCode(200);
    }

    private static boolean loaded;

    @Inject
    Pool pool;

    @Inject
    ChangeHistory history;

    @BeforeEach
    void load() {
        if (!loaded) {
            loaded = true;
            batches().forEach(ChangeBookResourceTest::send);
        }
    }

    static ValidatableResponse changes(String... params) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("from", T.minus(Duration.ofDays(30)).toString());
        query.put("to", T.plus(Duration.ofDays(1)).toString());
        query.put("cluster", CLUSTER);
        for (int i = 0; i < params.length; i += 2) {
            query.put(params[i], params[i + 1]);
        }
        return given().queryParams(query).get("/api/v1/changes").then().statusCode(200);
    }

    /** The book as kind|node|subject|before|after|source|count lines, in its order. */
    static List<String> book(String... params) {
        Response r = changes(params).extract().response();
        List<Map<String, Object>> items = r.jsonPath().getList("$");
        return items.stream().map(ChangeBookResourceTest::line).toList();
    }

    static String line(Map<String, Object> c) {
        return c.get("at") + " " + c.get("kind") + "|" + c.get("node") + "|" + c.get("subject") + "|" + c.get("before") + "|"
                + c.get("after") + "|" + c.get("source") + "|" + c.get("count");
    }

    static final List<String> EXPECTED = List.of(
            "2025-02-21T00:00:00Z NODE_ADDED|gpu-a|null|null|null|node status|1",
            "2025-03-03T01:00:00Z QUOTA|null|clusterqueue/team-a[default]:nvidia.com/gpu|nominal=8|nominal=16|ClusterQueue team-a|1",
            "2025-03-03T02:00:00Z CUDA_VERSION|gpu-a|null|12.4|12.6|node labels|1",
            "2025-03-03T02:00:00Z DRIVER_VERSION|gpu-a|null|550.54.15|560.35.03|node labels|1",
            "2025-03-03T02:00:00Z DRIVER_VERSION|gpu-b|null|535.104.05|550.54.15|nvidia-smi|1",
            "2025-03-03T02:30:00Z GPU_ALLOCATABLE|gpu-a|nvidia.com/gpu|8|0|node status|1",
            "2025-03-03T02:40:00Z GPU_ALLOCATABLE|gpu-a|nvidia.com/gpu|0|8|node status|1",
            "2025-03-03T03:00:00Z COMPONENT_VERSION|null|device-plugin|v0.14.5|v0.15.0|DaemonSet gpu-operator/nvidia-device-plugin-daemonset|1",
            "2025-03-03T03:00:00Z MIG_LAYOUT|gpu-a|null|all-disabled|all-1g.10gb|node labels|1",
            "2025-03-03T03:00:00Z NODE_LABEL|gpu-a|nvidia.com/mig.config.state|null|pending|node labels|1",
            "2025-03-03T03:10:00Z COMPONENT_HEALTH|gpu-a|device-plugin|Ready|CrashLoopBackOff|pod gpu-operator/nvdp-1|1",
            "2025-03-03T03:10:00Z COMPONENT_VERSION|gpu-a|device-plugin|v0.14.5|v0.15.0|pod gpu-operator/nvdp-1|1",
            "2025-03-03T03:30:00Z COMPONENT_HEALTH|gpu-a|device-plugin|CrashLoopBackOff|Absent|pod gpu-operator/nvdp-1|1",
            "2025-03-03T03:31:00Z COMPONENT_HEALTH|gpu-a|device-plugin|Absent|Ready|pod gpu-operator/nvdp-2|1",
            "2025-03-03T03:59:00Z NODE_LABEL|gpu-a|example.com/flap|null|a|node labels|1",
            "2025-03-03T04:00:00Z NODE_LABEL|gpu-a|example.com/flap|a|b|node labels|5",
            "2025-03-03T05:00:00Z NODE_LABEL|gpu-a|gpumeter.io/decode-frozen|null|true|gpumeter alert-service: freeze-decode|1",
            "2025-03-03T06:00:00Z NODE_CORDONED|gpu-a|null|schedulable|cordoned|gpumeter alert-service: cordon (Xid 79)|1",
            "2025-03-03T07:00:00Z NODE_UNCORDONED|gpu-a|null|cordoned|schedulable|gpumeter alert-service: uncordon|1",
            "2025-03-03T08:00:00Z NODE_CORDONED|gpu-a|null|schedulable|cordoned|node status|1",
            "2025-03-03T09:00:00Z NODE_REMOVED|gpu-b|null|null|null|node labels|1",
            "2025-03-03T10:00:00Z NODE_ADDED|gpu-b|null|null|null|node labels|1");

    @Test
    void everyKindFromVersionsArrivingOutOfOrder() {
        assertEquals(EXPECTED, book());
    }

    @Test
    void heartbeatLabelsAreLeftOutAndAFlappingValueIsOneChangePerMinute() {
        List<String> labels = book("kind", "NODE_LABEL");
        assertEquals(List.of("nvidia.com/mig.config.state", "example.com/flap", "example.com/flap",
                "gpumeter.io/decode-frozen"), labels.stream().map(l -> l.split("\\|")[2]).toList());
        assertEquals(List.of("1", "1", "5", "1"), labels.stream().map(l -> l.split("\\|")[6]).toList());
        changes("node", "gpu-a", "kind", "NODE_LABEL,DRIVER_VERSION").body("subject",
                contains(null, "nvidia.com/mig.config.state", "example.com/flap", "example.com/flap", "gpumeter.io/decode-frozen"));
    }

    @Test
    void sentAgainEverythingStoredOnceAndTheBookKeepsItsIds() {
        List<String> ids = changes().extract().jsonPath().getList("id");
        for (String batch : batches()) {
            String path = batch.contains("\"nodes\"") ? "/api/v1/facts" : "/api/v1/facts/governance";
            given().contentType(ContentType.JSON).body(batch).post(path).then().statusCode(200).body("accepted", equalTo(0));
        }
        assertEquals(ids, changes().extract().jsonPath().getList("id"));
        assertEquals(EXPECTED, book());
    }

    @Test
    void storedHistoryFillsTheBookAgainFromNothing() {
        pool.preparedQuery("DELETE FROM ledger.gov_change WHERE cluster = $1").execute(Tuple.of(CLUSTER)).await().indefinitely();
        pool.preparedQuery("DELETE FROM ledger.gov_change_derivation WHERE cluster = $1").execute(Tuple.of(CLUSTER))
                .await().indefinitely();
        changes().body("$", hasSize(0));
        history.deriveAll().await().indefinitely();
        assertEquals(EXPECTED, book());
        // Derived under the same rules, the next start leaves the cluster alone.
        assertEquals(0, history.deriveAll().await().indefinitely());
    }

    @Test
    void pagedLikeEveryList() {
        Response first = changes("limit", "5").extract().response();
        assertEquals("22", first.header("X-Total-Count"));
        Contract.record("ledger", "changes", first.asString()); // the console's Changes page reads the book a page at a time
        assertEquals(EXPECTED.subList(0, 5), first.jsonPath().<Map<String, Object>>getList("$").stream().map(ChangeBookResourceTest::line).toList());
        assertEquals(EXPECTED.subList(20, 22), book("limit", "5", "offset", "20"));
        given().queryParams(Map.of("from", T.toString(), "to", T.plusSeconds(60).toString(), "limit", "0"))
                .get("/api/v1/changes").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("limit"));
    }

    @Test
    void aBulkReadAnswersManyScopes() {
        String body = """
                {"scopes":[
                  {"cluster":"chg","node":"gpu-a","from":"2025-03-03T02:00:00Z","to":"2025-03-03T04:00:00Z","newestFirst":true,"limit":3},
                  {"cluster":"chg","node":"gpu-b","from":"2025-03-01T00:00:00Z","to":"2025-03-04T00:00:00Z","clusterWide":false,"kinds":["NODE_ADDED","NODE_REMOVED"]},
                  {"cluster":"nowhere","from":"2025-03-01T00:00:00Z","to":"2025-03-04T00:00:00Z"}]}""";
        String example = given().contentType(ContentType.JSON).body(body).post("/api/v1/changes/bulk").then().statusCode(200)
                .body("total", contains(12, 2, 0))
                .body("[0].changes.kind", contains("NODE_LABEL", "COMPONENT_HEALTH", "COMPONENT_HEALTH"))
                .body("[0].changes.at", contains("2025-03-03T03:59:00Z", "2025-03-03T03:31:00Z", "2025-03-03T03:30:00Z"))
                .body("[1].changes.kind", contains("NODE_REMOVED", "NODE_ADDED"))
                .body("[2].changes", hasSize(0)).extract().asString();
        // slo-service reads the changes before a burning SLO from this answer
        Contract.record("ledger", "changes-bulk", example);
        given().contentType(ContentType.JSON).body("{\"scopes\":[{\"cluster\":\"chg\",\"from\":\"2025-03-01T00:00:00Z\","
                        + "\"to\":\"2025-03-04T00:00:00Z\",\"kinds\":[\"NODE_MOVED\"]}]}")
                .post("/api/v1/changes/bulk").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("scopes[0].kinds"));
        given().contentType(ContentType.JSON).body("{\"scopes\":[{\"cluster\":\"chg\",\"from\":\"yesterday\",\"to\":\"2025-03-04T00:00:00Z\"}]}")
                .post("/api/v1/changes/bulk").then().statusCode(400).body("field", equalTo("scopes[0].from"));
    }

    static ValidatableResponse stack(Instant at) {
        return given().queryParam("cluster", CLUSTER).queryParam("at", at.toString()).get("/api/v1/nodes/gpu-a/gpu-stack")
                .then().statusCode(200);
    }

    @Test
    void theGpuStackOfANodeAtSeveralInstants() {
        stack(hours(1)).body("present", equalTo(true)).body("cordoned", equalTo(false))
                .body("resources[0].resource", equalTo("nvidia.com/gpu")).body("resources[0].allocatable", equalTo(8))
                .body("gpuLabels.driverVersion", equalTo("550")).body("gpuLabels.product", equalTo("NVIDIA-A100-SXM4-80GB"))
                .body("components[0].component", equalTo("device-plugin"))
                .body("components[0].workloads[0].version", equalTo("v0.14.5"))
                .body("components[0].pod.state", equalTo("Ready")).body("components[0].pod.name", equalTo("nvdp-1"));
        stack(t(Duration.ofMinutes(155))).body("resources[0].allocatable", equalTo(0)).body("resources[0].capacity", equalTo(8));
        stack(t(Duration.ofMinutes(200))).body("components[0].workloads[0].version", equalTo("v0.15.0"))
                .body("components[0].pod.state", equalTo("CrashLoopBackOff")).body("components[0].pod.restarts", equalTo(3));
        stack(t(Duration.ofMinutes(210)).plusSeconds(30)).body("components[0].pod.state", equalTo("Absent"))
                .body("components[0].pod.name", nullValue());
        String cordoned = stack(hours(6).plusSeconds(60)).body("cordoned", equalTo(true))
                .body("taints[0].key", equalTo("node.kubernetes.io/unschedulable"))
                .body("components[0].pod.name", equalTo("nvdp-2")).extract().asString();
        Contract.record("ledger", "gpu-stack", cordoned); // the console's Changes page shows what a node's stack offered
        given().queryParam("cluster", CLUSTER).queryParam("at", hours(12).toString()).get("/api/v1/nodes/gpu-b/gpu-stack")
                .then().statusCode(200).body("statusAt", nullValue())
                .body("driverVersions[0].source", equalTo("nvidia-smi")).body("driverVersions[0].version", equalTo("550.54.15"));
        given().queryParam("cluster", CLUSTER).queryParam("at", T.minusSeconds(1).toString()).get("/api/v1/nodes/gpu-a/gpu-stack")
                .then().statusCode(404).contentType("application/problem+json");
        given().queryParam("at", T.toString()).get("/api/v1/nodes/gpu-a/gpu-stack").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("cluster"));
    }

    @Test
    void badInputIsRefusedNamingTheFieldAndNothingIsStored() {
        String missing = "{\"cluster\":\"chgbad\",\"nodeStatuses\":[{\"resourceVersion\":\"1\",\"type\":\"ADDED\","
                + "\"observedAt\":\"2025-03-03T00:00:00Z\"}]}";
        refused(missing, "nodeStatuses[0].name");
        refused("{\"cluster\":\"chgbad\",\"queueObjects\":[" + queue(1, T, 1, 0) + "],\"stackWorkloads\":["
                + workload(1, T, "v1").replace("DaemonSet", "StatefulSet") + "]}", "stackWorkloads[0].kind");
        refused("{\"cluster\":\"chgbad\",\"driverSightings\":[" + sighting("1.0", T).replace("nvidia-smi", "lspci") + "]}",
                "driverSightings[0].source");
        refused("{\"cluster\":\"chgbad\",\"stackPods\":[" + pod("p", 1, "ADDED", T, "v1", true, -1, null) + "]}",
                "stackPods[0].restarts");
        refused("{\"cluster\":\"chgbad\",\"nodeStatuses\":[" + status(1, T, -2, false, Map.of()) + "]}",
                "nodeStatuses[0].allocatable");
        // The queue object beside the refused workload was not stored either: its quota made no change.
        given().queryParams(Map.of("from", "2025-01-01T00:00:00Z", "to", "2025-04-01T00:00:00Z", "cluster", "chgbad"))
                .get("/api/v1/changes").then().statusCode(200).body("$", hasSize(0));
        Long stored = pool.preparedQuery("SELECT count(*) AS n FROM ledger.gov_queue_object_fact WHERE cluster = 'chgbad'")
                .execute().await().indefinitely().iterator().next().getLong("n");
        assertEquals(0L, stored);
    }

    static void refused(String batch, String field) {
        given().contentType(ContentType.JSON).body(batch).post("/api/v1/facts/governance").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo(field))
                .body("detail", containsString(field));
    }

    @Test
    void aNodeWithTenThousandLabelsAndADigestOnlyImageAreStored() {
        Map<String, String> many = new LinkedHashMap<>();
        for (int i = 0; i < 10_000; i++) {
            many.put("example.com/l" + i, "v" + i);
        }
        send("{\"cluster\":\"chgbig\",\"nodes\":[" + node("big", "g1", 1, "ADDED", T, many) + ","
                + node("big", "g1", 2, "MODIFIED", hours(1), with(many, Map.of("example.com/l7", "w"))) + "]}");
        String digest = "nvcr.io/nvidia/k8s/dcgm-exporter@sha256:" + "ab".repeat(32);
        send("{\"cluster\":\"chgbig\",\"stackWorkloads\":[" + workload(1, T, "v1")
                + "," + workload(2, hours(1), "v1").replace("nvcr.io/nvidia/k8s-device-plugin:v1", digest) + "]}");
        given().queryParams(Map.of("from", "2025-03-01T00:00:00Z", "to", "2025-03-04T00:00:00Z", "cluster", "chgbig"))
                .get("/api/v1/changes").then().statusCode(200)
                // At one instant the cluster-wide change comes first.
                .body("kind", contains("COMPONENT_VERSION", "NODE_LABEL"))
                .body("[1].subject", equalTo("example.com/l7")).body("[1].after", equalTo("w"))
                .body("[0].before", equalTo("v1")).body("[0].after", equalTo("sha256:" + "ab".repeat(32)));
    }
}
