package io.gpumeter.ledger.triage.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.NotScheduled;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodPlacement;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;

/**
 * A tenant's workloads, cluster "tw" (no other test writes there), 2026-04-02. Namespace team-a is acme's, team-b
 * globex's.
 * <pre>
 * team-a/train   holds a HAMi share of 8192 MiB, 30 % cores of GPU-TW1 on tw-1 from 09:00: HOLDING.
 * team-a/waiter  created 09:30, refused by the scheduler ("0/3 nodes are available: 3 Insufficient nvidia.com/gpu"): PENDING.
 * team-a/wl-1    a Kueue Workload created 09:40 that waits for quota, third in its ClusterQueue: PENDING.
 * team-b/other   globex's, holding a share of the same card: never in acme's answer.
 * </pre>
 * Cluster "twj" (no other test writes there either), where the scheduler says the same of two waits and the facts
 * tell them apart:
 * <pre>
 * twj-a  pool=a, 8 GPUs, allocatable 8, device plugin ready; team-k/holder holds all 8 from 04:00.
 * twj-b  pool=b, 8 GPUs, allocatable 0, device plugin in CrashLoopBackOff.
 * team-j/full-0 (pool=a) and team-j/blind-0 (pool=b), initech's, each ask 2 GPUs from 03:00 and are refused
 *        "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.": the cluster is full for one, the plugin does not
 *        report for the other.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class TenantWorkloadsResourceTest {

    static final String AT = "2026-04-02T12:00:00Z";

    static String namespace(String name, String tenant) {
        return """
                {"name":"%s","uid":"tw-%s","resourceVersion":"1","type":"ADDED","observedAt":"2026-04-01T00:00:00Z",
                 "labels":{"gpumeter.io/tenant":"%s"},"labelTimes":{"gpumeter.io/tenant":"2026-04-01T00:00:00Z"}}
                """.formatted(name, name, tenant);
    }

    static String share(String uid, String ns, String name) {
        return """
                {"uid":"%s","namespace":"%s","name":"%s","resourceVersion":"r-%s","type":"MODIFIED","observedAt":"2026-04-02T09:00:01Z",
                 "createdAt":"2026-04-02T08:59:00Z","scheduledAt":"2026-04-02T09:00:00Z","nodeName":"tw-1","phase":"Running",
                 "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":8192,"nvidia.com/gpucores":30},
                 "vgpus":[{"container":0,"uuid":"GPU-TW1","type":"NVIDIA","memoryMib":8192,"cores":30}],
                 "hamiBindPhase":"success","hamiNode":"tw-1"}
                """.formatted(uid, ns, name, uid);
    }

    static final String FACTS = "{\"cluster\":\"tw\",\"namespaces\":[" + namespace("team-a", "acme") + ","
            + namespace("team-b", "globex") + "],\"nodes\":[{\"name\":\"tw-1\",\"uid\":\"tw-1\",\"resourceVersion\":\"1\","
            + "\"type\":\"ADDED\",\"observedAt\":\"2026-04-01T00:00:00Z\",\"labels\":{},\"gpus\":[{\"uuid\":\"GPU-TW1\","
            + "\"model\":\"NVIDIA-A100-SXM4-80GB\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":10}]}],"
            + "\"pods\":[" + share("tw-train", "team-a", "train") + "," + share("tw-other", "team-b", "other") + "]}";

    static final String GOVERNANCE = """
            {"cluster":"tw",
             "podStatuses":[{"uid":"tw-waiter","namespace":"team-a","name":"waiter","resourceVersion":"5","type":"ADDED",
               "observedAt":"2026-04-02T09:30:01Z","createdAt":"2026-04-02T09:30:00Z","schedulerName":"default-scheduler",
               "phase":"Pending","gpuResources":{"nvidia.com/gpu":2},"containers":[]}],
             "events":[{"uid":"tw-ev1","namespace":"team-a","name":"waiter.1","resourceVersion":"6","observedAt":"2026-04-02T09:30:05Z",
               "involvedKind":"Pod","involvedNamespace":"team-a","involvedName":"waiter","involvedUid":"tw-waiter",
               "reason":"FailedScheduling","eventType":"Warning",
               "message":"0/3 nodes are available: 3 Insufficient nvidia.com/gpu.","reportingComponent":"default-scheduler",
               "firstAt":"2026-04-02T09:30:05Z","lastAt":"2026-04-02T11:30:05Z","count":12},
              {"uid":"tw-ev2","namespace":"team-a","name":"wl-1.1","resourceVersion":"7","observedAt":"2026-04-02T09:40:05Z",
               "involvedKind":"Workload","involvedNamespace":"team-a","involvedName":"wl-1","involvedUid":"tw-wl1",
               "reason":"Pending","eventType":"Normal",
               "message":"couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100, 2 more needed",
               "firstAt":"2026-04-02T09:40:05Z","lastAt":"2026-04-02T09:40:05Z","count":1}],
             "workloads":[{"uid":"tw-wl1","namespace":"team-a","name":"wl-1","resourceVersion":"8","type":"ADDED",
               "observedAt":"2026-04-02T09:40:01Z","apiVersion":"kueue.x-k8s.io/v1beta1","createdAt":"2026-04-02T09:40:00Z",
               "queueName":"lq-a","active":true,"podSets":[{"name":"main","count":1,"requests":{"nvidia.com/gpu":4}}],
               "conditions":[]}],
             "pendingPositions":[{"clusterQueue":"cq-a","namespace":"team-a","workload":"wl-1","localQueue":"lq-a","priority":0,
               "positionInClusterQueue":2,"positionInLocalQueue":0,"observedAt":"2026-04-02T11:00:00Z"}]}
            """;

    private static boolean loaded;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        given().contentType(ContentType.JSON).body(FACTS).post("/api/v1/facts").then().statusCode(200);
        given().contentType(ContentType.JSON).body(GOVERNANCE).post("/api/v1/facts/governance").then().statusCode(200);
        post("/api/v1/facts", new FactBatch(JUDGED, List.of(new NamespaceFact("team-j", "twj-team-j", "1",
                WatchEventType.ADDED, DAY, Map.of("gpumeter.io/tenant", "initech"), Map.of("gpumeter.io/tenant", DAY))),
                List.of(node("twj-a", "a"), node("twj-b", "b")), List.of(holder())));
        post("/api/v1/facts/governance", GovernanceBatch.of(JUDGED, List.of(status("twj-a", 8), status("twj-b", 0),
                plugin("twj-a", true), plugin("twj-b", false), refused("full-0", "a"), refused("blind-0", "b"))));
    }

    static final String JUDGED = "twj";
    static final Instant DAY = Instant.parse("2026-04-02T00:00:00Z");
    static final String INSUFFICIENT = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.";
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    static void post(String path, Object body) {
        try {
            given().contentType(ContentType.JSON).body(JSON.writeValueAsString(body)).post(path).then().statusCode(200);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Instant hour(int h) {
        return DAY.plusSeconds(3600L * h);
    }

    static NodeFact node(String name, String pool) {
        return new NodeFact(name, "u-" + name, "10", WatchEventType.ADDED, hour(1),
                Map.of("pool", pool, "nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB", "nvidia.com/gpu.count", "8"), List.of());
    }

    static NodeStatusFact status(String name, long allocatable) {
        return new NodeStatusFact(name, "u-" + name, "11", WatchEventType.ADDED, hour(1), DAY.minusSeconds(86_400),
                Map.of("nvidia.com/gpu", 8L), Map.of("nvidia.com/gpu", allocatable), false, List.of(),
                Map.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"), Map.of());
    }

    static StackPodFact plugin(String node, boolean ready) {
        return new StackPodFact("gpu-operator", "nvidia-device-plugin-daemonset-" + node, "u-dp-" + node, "12",
                WatchEventType.ADDED, hour(1), "device-plugin", node, List.of("nvcr.io/nvidia/k8s-device-plugin:v0.15.0"),
                "Running", ready, ready ? 0 : 9, ready ? null : "CrashLoopBackOff");
    }

    static PodFact holder() {
        return new PodFact("u-twj-holder", "team-k", "holder", "30", WatchEventType.MODIFIED, hour(4).plusSeconds(10),
                hour(4), hour(4), "twj-a", "Running", "default-scheduler", false, null, null, new Owner("Job", "holder"),
                Map.of(), Map.of("nvidia.com/gpu", 8L), List.of(), List.of());
    }

    static PodStatusFact refused(String name, String pool) {
        return new PodStatusFact("u-twj-" + name, "team-j", name, "20", WatchEventType.ADDED, hour(3).plusSeconds(5),
                hour(3), null, null, null, "default-scheduler", "Pending", null, null, new Owner("Job", name), null, null,
                Map.of("nvidia.com/gpu", 2L), null, List.of(), new NotScheduled("Unschedulable", INSUFFICIENT,
                hour(3).plusSeconds(1)), new PodPlacement(Map.of("pool", pool), List.of(), List.of()));
    }

    @Test
    void aTenantSeesWhatEachOfItsWorkloadsHoldsOrWhyItWaitsAndNothingOfAnothers() {
        String acme = given().queryParam("cluster", "tw").queryParam("at", AT).get("/api/v1/tenants/acme/workloads").then().statusCode(200)
                .body("$", hasSize(3))
                .body("name", equalTo(List.of("waiter", "wl-1", "train")))
                .body("kind", equalTo(List.of("POD", "WORKLOAD", "POD")))
                .body("state", equalTo(List.of("PENDING", "PENDING", "HOLDING")))
                .body("namespace", equalTo(List.of("team-a", "team-a", "team-a")))
                .body("[0].reasonClass", notNullValue()).body("[0].since", equalTo("2026-04-02T09:30:00Z"))
                .body("[0].triage", equalTo("namespace=team-a&pod=waiter&cluster=tw"))
                .body("[1].reasonClass", equalTo("quota")).body("[1].rootCauseClass", equalTo("control-plane"))
                .body("[1].positionInClusterQueue", equalTo(2)).body("[1].localQueue", equalTo("lq-a"))
                .body("[1].triage", equalTo("namespace=team-a&workload=wl-1&cluster=tw"))
                .body("[2].node", equalTo("tw-1")).body("[2].uid", equalTo("tw-train"))
                .body("[2].units[0].gpuUuid", equalTo("GPU-TW1")).body("[2].units[0].kind", equalTo("VGPU"))
                .body("[2].units[0].memoryMib", equalTo(8192)).body("[2].units[0].cores", equalTo(30))
                .body("[2].since", equalTo("2026-04-02T09:00:00Z"))
                .body("[2].triage", equalTo("namespace=team-a&pod=train&cluster=tw")).extract().asString();
        Contract.record("ledger", "tenant-workloads", acme); // the console's Workloads page lists them
        given().queryParam("cluster", "tw").queryParam("at", AT).get("/api/v1/tenants/globex/workloads").then().statusCode(200)
                .body("name", equalTo(List.of("other"))).body("[0].state", equalTo("HOLDING"));
    }

    @Test
    void beforeAnythingBeganTheListIsEmptyAndBadInputIsNamed() {
        given().queryParam("cluster", "tw").queryParam("at", "2026-04-02T08:00:00Z").get("/api/v1/tenants/acme/workloads")
                .then().statusCode(200).body("$", hasSize(0));
        given().queryParam("cluster", "tw").get("/api/v1/tenants/nobody/workloads").then().statusCode(200).body("$", hasSize(0));
        given().queryParam("at", "yesterday").get("/api/v1/tenants/acme/workloads").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("at"));
    }

    @Test
    void aWaitShowsTheCauseTheFactsDecideNotTheClassOfWhatWasSaid() {
        for (String cluster : new String[]{JUDGED, null}) {
            given().queryParam("at", AT).queryParams(cluster == null ? Map.of() : Map.of("cluster", cluster))
                    .get("/api/v1/tenants/initech/workloads").then().statusCode(200)
                    .body("name", equalTo(List.of("blind-0", "full-0")))
                    .body("message", equalTo(List.of(INSUFFICIENT, INSUFFICIENT)))
                    .body("[0].reasonClass", equalTo("no-device")).body("[0].rootCauseClass", equalTo("data-plane"))
                    .body("[1].reasonClass", equalTo("cluster-full")).body("[1].rootCauseClass", equalTo("control-plane"));
        }
        given().queryParams(Map.of("cluster", JUDGED, "at", AT)).get("/api/v1/queue-wait/pending").then().statusCode(200)
                .body("find { it.name == 'full-0' }.reasonClass", equalTo("cluster-full"))
                .body("find { it.name == 'blind-0' }.reasonClass", equalTo("no-device"));
    }
}
