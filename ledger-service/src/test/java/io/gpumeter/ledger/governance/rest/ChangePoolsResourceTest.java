package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.governance.service.ChangeBook;
import io.gpumeter.ledger.governance.service.ChangeHistory;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.governance.rest.ChangeBookResourceTest.node;
import static io.gpumeter.ledger.governance.rest.ChangeBookResourceTest.workload;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each change of the book names its node's pool at the change's version, as the fragmentation read names pools: the
 * first configured pool label the node carries (gpumeter.io/pool here), else its card model. Cluster "chgpool" (no other
 * test writes there), T 2025-04-07T00:00Z, worked out by hand:
 * <pre>
 * pool-a labels  rv10 T: H100, gpumeter.io/pool=training, driver 550.54.15, example.com/x=1
 *                rv20 T+1h: example.com/x=2                        -> NODE_LABEL, pool training
 *                rv30 T+2h: gpumeter.io/pool=inference             -> NODE_LABEL gpumeter.io/pool, pool inference
 *                rv40 T+3h: driver 560.35.03                        -> DRIVER_VERSION, pool inference
 * pool-a status  rv12 T+10m allocatable 8; rv25 T+90m 0            -> GPU_ALLOCATABLE 8->0, pool training (rv20's)
 *                rv35 T+150m 8                                      -> GPU_ALLOCATABLE 0->8, pool inference (rv30's)
 * pool-a pod     device-plugin rv13 T+5m ready; rv16 T+30m not ready -> COMPONENT_HEALTH, pool training (at T+30m)
 *                rv37 T+160m ready                                  -> COMPONENT_HEALTH, pool inference (at T+160m)
 * pool-b labels  rv11 T: L40S, no pool label, driver 550.54.15; rv50 T+4h driver 560.35.03
 *                                                                   -> DRIVER_VERSION, pool NVIDIA-L40S (its model)
 * device-plugin  DaemonSet rv100 T v0.14.5, rv110 T+2h v0.15.0   -> COMPONENT_VERSION, cluster-wide: no pool
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ChangePoolsResourceTest {

    static final String CLUSTER = "chgpool";
    static final Instant T = Instant.parse("2025-04-07T00:00:00Z");

    static Instant minutes(long m) {
        return T.plus(Duration.ofMinutes(m));
    }

    static Map<String, String> labels(String product, String pool, String driver, String x) {
        String[] d = driver.split("\\.");
        Map<String, String> out = new LinkedHashMap<>();
        out.put("nvidia.com/gpu.product", product);
        out.put("nvidia.com/cuda.driver.major", d[0]);
        out.put("nvidia.com/cuda.driver.minor", d[1]);
        out.put("nvidia.com/cuda.driver.rev", d[2]);
        if (pool != null) {
            out.put("gpumeter.io/pool", pool);
        }
        if (x != null) {
            out.put("example.com/x", x);
        }
        return out;
    }

    static String status(int rv, Instant at, long allocatable) {
        return "{\"name\":\"pool-a\",\"uid\":\"pa\",\"resourceVersion\":\"" + rv + "\",\"type\":\"MODIFIED\",\"observedAt\":\""
                + at + "\",\"capacity\":{\"nvidia.com/gpu\":8},\"allocatable\":{\"nvidia.com/gpu\":" + allocatable
                + "},\"unschedulable\":false,\"taints\":[],\"gpuLabels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\"},"
                + "\"suiteAnnotations\":{}}";
    }

    static String pod(int rv, Instant at, boolean ready) {
        return "{\"namespace\":\"gpu-operator\",\"name\":\"nvdp-a\",\"uid\":\"u-nvdp-a\",\"resourceVersion\":\"" + rv
                + "\",\"type\":\"MODIFIED\",\"observedAt\":\"" + at + "\",\"component\":\"device-plugin\",\"node\":\"pool-a\","
                + "\"images\":[\"nvcr.io/nvidia/k8s-device-plugin:v0.14.5\"],\"phase\":\"Running\",\"ready\":" + ready
                + ",\"restarts\":0,\"waitingReason\":null}";
    }

    static void send(String path, String list, List<String> facts) {
        given().contentType(ContentType.JSON).body("{\"cluster\":\"" + CLUSTER + "\",\"" + list + "\":[" + String.join(",", facts) + "]}")
                .post(path).then().statusCode(200);
    }

    private static boolean loaded;

    @Inject
    Pool pool;

    @Inject
    ChangeHistory history;

    @Inject
    ChangeBook book;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String h100 = "NVIDIA-H100-80GB-HBM3";
        // The later versions first: a change is in the pool of its version, never of the last one to arrive.
        send("/api/v1/facts", "nodes", List.of(
                node("pool-a", "pa", 40, "MODIFIED", minutes(180), labels(h100, "inference", "560.35.03", "2")),
                node("pool-a", "pa", 30, "MODIFIED", minutes(120), labels(h100, "inference", "550.54.15", "2")),
                node("pool-b", "pb", 50, "MODIFIED", minutes(240), labels("NVIDIA-L40S", null, "560.35.03", null))));
        send("/api/v1/facts/governance", "nodeStatuses", List.of(status(35, minutes(150), 8), status(25, minutes(90), 0)));
        send("/api/v1/facts/governance", "stackPods", List.of(pod(37, minutes(160), true)));
        send("/api/v1/facts/governance", "stackWorkloads", List.of(workload(110, minutes(120), "v0.15.0")));
        send("/api/v1/facts", "nodes", List.of(
                node("pool-a", "pa", 10, "ADDED", T, labels(h100, "training", "550.54.15", "1")),
                node("pool-a", "pa", 20, "MODIFIED", minutes(60), labels(h100, "training", "550.54.15", "2")),
                node("pool-b", "pb", 11, "ADDED", T, labels("NVIDIA-L40S", null, "550.54.15", null))));
        send("/api/v1/facts/governance", "nodeStatuses", List.of(status(12, minutes(10), 8)));
        send("/api/v1/facts/governance", "stackPods", List.of(pod(13, minutes(5), true), pod(16, minutes(30), false)));
        send("/api/v1/facts/governance", "stackWorkloads", List.of(workload(100, T, "v0.14.5")));
    }

    static final List<String> EXPECTED = List.of(
            "2025-04-07T00:30:00Z COMPONENT_HEALTH|pool-a|device-plugin|training",
            "2025-04-07T01:00:00Z NODE_LABEL|pool-a|example.com/x|training",
            "2025-04-07T01:30:00Z GPU_ALLOCATABLE|pool-a|nvidia.com/gpu|training",
            "2025-04-07T02:00:00Z COMPONENT_VERSION|null|device-plugin|null",
            "2025-04-07T02:00:00Z NODE_LABEL|pool-a|gpumeter.io/pool|inference",
            "2025-04-07T02:30:00Z GPU_ALLOCATABLE|pool-a|nvidia.com/gpu|inference",
            "2025-04-07T02:40:00Z COMPONENT_HEALTH|pool-a|device-plugin|inference",
            "2025-04-07T03:00:00Z DRIVER_VERSION|pool-a|null|inference",
            "2025-04-07T04:00:00Z DRIVER_VERSION|pool-b|null|NVIDIA-L40S");

    static List<String> book() {
        List<Map<String, Object>> items = given().queryParams(Map.of("from", T.minus(Duration.ofDays(1)).toString(),
                        "to", T.plus(Duration.ofDays(1)).toString(), "cluster", CLUSTER))
                .get("/api/v1/changes").then().statusCode(200).extract().jsonPath().getList("$");
        return items.stream().map(c -> c.get("at") + " " + c.get("kind") + "|" + c.get("node") + "|" + c.get("subject") + "|"
                + c.get("pool")).toList();
    }

    @Test
    void eachChangeIsInItsNodesPoolAtItsVersion() {
        assertEquals(EXPECTED, book());
    }

    @Test
    void aBulkScopeReadsOnePool() {
        String body = """
                {"scopes":[
                  {"cluster":"chgpool","from":"2025-04-06T00:00:00Z","to":"2025-04-08T00:00:00Z","pool":"training"},
                  {"cluster":"chgpool","node":"pool-a","from":"2025-04-06T00:00:00Z","to":"2025-04-08T00:00:00Z","pool":"inference","newestFirst":true},
                  {"cluster":"chgpool","from":"2025-04-06T00:00:00Z","to":"2025-04-08T00:00:00Z","pool":"NVIDIA-L40S"},
                  {"cluster":"chgpool","node":"pool-b","from":"2025-04-06T00:00:00Z","to":"2025-04-08T00:00:00Z"}]}""";
        given().contentType(ContentType.JSON).body(body).post("/api/v1/changes/bulk").then().statusCode(200)
                .body("total", contains(3, 4, 1, 2))
                .body("[0].changes.kind", contains("COMPONENT_HEALTH", "NODE_LABEL", "GPU_ALLOCATABLE"))
                .body("[0].changes.pool", contains("training", "training", "training"))
                // a pool takes no cluster-wide change, though a node's scope would
                .body("[1].changes.kind", contains("DRIVER_VERSION", "COMPONENT_HEALTH", "GPU_ALLOCATABLE", "NODE_LABEL"))
                .body("[2].changes.node", contains("pool-b"))
                .body("[3].changes.kind", contains("COMPONENT_VERSION", "DRIVER_VERSION"))
                .body("[3].changes.pool", contains(null, "NVIDIA-L40S"));
    }

    @Test
    void aBookStoredBeforePoolsIsDerivedAgainWithThem() {
        // As the migration leaves a book stored before: no pools, derived under rules that named no pool labels.
        pool.preparedQuery("UPDATE ledger.gov_change SET pool = NULL WHERE cluster = $1").execute(Tuple.of(CLUSTER))
                .await().indefinitely();
        String before = book.rules().substring(0, book.rules().indexOf(";pool-labels="));
        pool.preparedQuery("""
                        INSERT INTO ledger.gov_change_derivation (cluster, rules, derived_at) VALUES ($1, $2, now())
                        ON CONFLICT (cluster) DO UPDATE SET rules = excluded.rules""")
                .execute(Tuple.of(CLUSTER, before)).await().indefinitely();
        assertTrue(book().stream().allMatch(l -> l.endsWith("|null")), "no pools stored");
        assertTrue(history.deriveAll().await().indefinitely() >= 1);
        assertEquals(EXPECTED, book());
        given().queryParam("cluster", CLUSTER).queryParam("from", "2025-04-06T00:00:00Z").queryParam("to", "2025-04-08T00:00:00Z")
                .get("/api/v1/changes").then().statusCode(200).body("[0].pool", equalTo("training"));
    }
}
