package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Governance facts of cluster "gov" through the ledger's REST API, against the embedded PostgreSQL. Every figure
 * below is worked out by hand from the batches in this class:
 * <pre>
 * cq-a      w-a1 created 10:00, admitted 10:05 (300 s); w-a2 created 10:00, admitted 10:20 (1200 s);
 *           w-a3 created 10:30, still pending, refused once for quota; it names only LocalQueue lq-a -> cq-a.
 *           nearest rank of 2 waits: p50 rank 1 = 300 s, p95 and p99 rank 2 = 1200 s.
 * research  w-fixture created 2025-03-14 00:39:00, admitted 03:03:26: 8666 s.
 * volcano   pod group "test" created 12:28:55, Scheduled 12:29:02: 7 s in queue "default".
 * p-oom     2 whole GPUs on gpu-9 from 00:00 to 10:00 = 20 GPU-hours, one pod start; OOM-killed 02:00:00,
 *           running again 02:01:00 (60 s). Card 0000:3b:00 of gpu-9: Xid 79 at 05:00, back at 05:30 (1800 s).
 *           Per cause: 1 failure each, 1 x 1000 / 20 = 50 per 1,000 GPU-hours, 1 / 1 = 1 per pod start.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class GovernanceResourceTest {

    static final String PODS = """
            {"cluster":"gov","pods":[
              {"uid":"p-oom","namespace":"ml","name":"trainer-0","resourceVersion":"100","type":"MODIFIED","observedAt":"2024-02-01T00:00:31Z",
               "createdAt":"2024-02-01T00:00:00Z","scheduledAt":"2024-02-01T00:00:00Z","nodeName":"gpu-9","phase":"Running",
               "gpuResources":{"nvidia.com/gpu":2}},
              {"uid":"p-oom","namespace":"ml","name":"trainer-0","resourceVersion":"140","type":"MODIFIED","observedAt":"2024-02-01T10:00:01Z",
               "createdAt":"2024-02-01T00:00:00Z","scheduledAt":"2024-02-01T00:00:00Z","nodeName":"gpu-9","phase":"Succeeded",
               "allTerminated":true,"lastFinishedAt":"2024-02-01T10:00:00Z","gpuResources":{"nvidia.com/gpu":2}}]}
            """;

    static String podStatus(String rv, String phase, String state, String lastState, int restarts) {
        return """
                {"uid":"p-oom","namespace":"ml","name":"trainer-0","resourceVersion":"%s","type":"MODIFIED","observedAt":"2024-03-01T00:00:00Z",
                 "createdAt":"2024-02-01T00:00:00Z","scheduledAt":"2024-02-01T00:00:00Z","nodeName":"gpu-9","schedulerName":"default-scheduler",
                 "phase":"%s","owner":{"kind":"Job","name":"trainer"},"gpuResources":{"nvidia.com/gpu":2},
                 "containers":[{"name":"main","init":false,"restartCount":%d,"state":%s,"lastState":%s}]}
                """.formatted(rv, phase, restarts, state, lastState);
    }

    static String workload(String uid, String rv, String created, String cq, String conditions) {
        return """
                {"uid":"%s","namespace":"research","name":"%s","resourceVersion":"%s","type":"MODIFIED","observedAt":"2024-03-01T00:00:00Z",
                 "apiVersion":"kueue.x-k8s.io/v1beta1","createdAt":"%s","queueName":"lq-a","active":true,
                 "podSets":[{"name":"main","count":1,"requests":{"nvidia.com/gpu":1}}],"clusterQueue":%s,"conditions":[%s]}
                """.formatted(uid, uid, rv, created, cq == null ? "null" : "\"" + cq + "\"", conditions);
    }

    static String admitted(String at) {
        return """
                {"type":"QuotaReserved","status":"True","reason":"QuotaReserved","message":"Quota reserved","lastTransitionTime":"%s"},
                {"type":"Admitted","status":"True","reason":"Admitted","message":"The workload is admitted","lastTransitionTime":"%s"}
                """.formatted(at, at);
    }

    static final String GOVERNANCE = "{\"cluster\":\"gov\",\"workloads\":["
            + workload("w-a1", "10", "2024-02-01T10:00:00Z", "cq-a", admitted("2024-02-01T10:05:00Z")) + ","
            + workload("w-a2", "11", "2024-02-01T10:00:00Z", "cq-a", admitted("2024-02-01T10:20:00Z")) + ","
            + workload("w-a3", "12", "2024-02-01T10:30:00Z", null, "") + ","
            + workload("w-fixture", "13", "2025-03-14T00:39:00Z", "gpu-research", admitted("2025-03-14T03:03:26Z")) + "],"
            + """
            "queueObjects":[
              {"kind":"CLUSTER_QUEUE","namespace":"","name":"cq-a","uid":"cq1","resourceVersion":"2","type":"ADDED",
               "observedAt":"2024-03-01T00:00:00Z","cohort":"research",
               "quotas":[{"flavor":"a100-80g","resource":"nvidia.com/gpu","nominal":8,"borrowingLimit":4,"reserved":10,"used":9,"borrowed":2}]},
              {"kind":"LOCAL_QUEUE","namespace":"research","name":"lq-a","uid":"lq1","resourceVersion":"3","type":"ADDED",
               "observedAt":"2024-03-01T00:00:00Z","clusterQueue":"cq-a"}],
            "podGroups":[
              {"uid":"pg1","namespace":"default","name":"test","resourceVersion":"109074","type":"ADDED","observedAt":"2024-03-01T00:00:00Z",
               "createdAt":"2020-08-11T12:28:55Z","queue":"default","minMember":1,"phase":"Running","running":1,
               "conditions":[{"type":"Unschedulable","status":"True","reason":"NotEnoughResources","message":"1/0 tasks in gang unschedulable",
                              "lastTransitionTime":"2020-08-11T12:28:57Z"},
                             {"type":"Scheduled","status":"True","reason":"tasks in gang are ready to be scheduled","lastTransitionTime":"2020-08-11T12:29:02Z"}]}],
            "events":[
              {"uid":"ev-a3","namespace":"research","name":"w-a3.1","resourceVersion":"20","observedAt":"2024-03-01T00:00:00Z",
               "involvedKind":"Workload","involvedNamespace":"research","involvedName":"w-a3","reason":"Pending","eventType":"Normal",
               "message":"couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100-80g, 1 more needed",
               "firstAt":"2024-02-01T10:30:01Z","lastAt":"2024-02-01T10:30:01Z","count":1}],
            "xids":[{"node":"gpu-9","pciBusId":"0000:3b:00","at":"2024-02-01T05:00:00Z","code":79,"pid":0,
                     "message":"GPU has fallen off the bus.","source":"kmsg"}],
            "gpuAddresses":[{"node":"gpu-9","pciBusId":"0000:3b:00","gpuUuid":"GPU-9-0","at":"2024-02-01T05:30:00Z"}],
            "podStatuses":[
            """
            + podStatus("101", "Running", "{\"state\":\"running\",\"startedAt\":\"2024-02-01T00:00:30Z\"}", "null", 0) + ","
            + podStatus("120", "Running", "{\"state\":\"waiting\",\"reason\":\"CrashLoopBackOff\"}",
            "{\"state\":\"terminated\",\"reason\":\"OOMKilled\",\"exitCode\":137,\"startedAt\":\"2024-02-01T00:00:30Z\",\"finishedAt\":\"2024-02-01T02:00:00Z\"}", 1) + ","
            + podStatus("121", "Running", "{\"state\":\"running\",\"startedAt\":\"2024-02-01T02:01:00Z\"}",
            "{\"state\":\"terminated\",\"reason\":\"OOMKilled\",\"exitCode\":137,\"startedAt\":\"2024-02-01T00:00:30Z\",\"finishedAt\":\"2024-02-01T02:00:00Z\"}", 1) + ","
            + podStatus("140", "Succeeded", "{\"state\":\"terminated\",\"reason\":\"Completed\",\"exitCode\":0,\"startedAt\":\"2024-02-01T02:01:00Z\",\"finishedAt\":\"2024-02-01T10:00:00Z\"}",
            "{\"state\":\"terminated\",\"reason\":\"OOMKilled\",\"exitCode\":137,\"startedAt\":\"2024-02-01T00:00:30Z\",\"finishedAt\":\"2024-02-01T02:00:00Z\"}", 1)
            + "]}";

    static final int GOVERNANCE_FACTS = 4 + 2 + 1 + 1 + 1 + 1 + 4;
    private static boolean loaded;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        given().contentType(ContentType.JSON).body(PODS).post("/api/v1/facts").then().statusCode(200);
        given().contentType(ContentType.JSON).body(GOVERNANCE).post("/api/v1/facts/governance").then().statusCode(200)
                .body("accepted", equalTo(GOVERNANCE_FACTS)).body("duplicates", equalTo(0));
    }

    static ValidatableResponse get(String path, Map<String, String> params) {
        return given().queryParams(params).get(path).then();
    }

    static Map<String, String> may(String groupBy) {
        return Map.of("from", "2024-02-01T00:00:00Z", "to", "2024-03-01T00:00:00Z", "groupBy", groupBy, "cluster", "gov");
    }

    @Test
    void queueWaitPerClusterQueueByNearestRank() {
        String waits = get("/api/v1/queue-wait", may("clusterQueue")).statusCode(200)
                .body("$", hasSize(1))
                .body("[0].key", equalTo("cq-a")).body("[0].count", equalTo(2))
                .body("[0].p50Seconds", equalTo(300)).body("[0].p95Seconds", equalTo(1200))
                .body("[0].p99Seconds", equalTo(1200)).body("[0].maxSeconds", equalTo(1200)).extract().asString();
        Contract.record("ledger", "queue-wait", waits); // the console's Queues page draws the percentiles
        get("/api/v1/queue-wait", may("localQueue")).statusCode(200).body("[0].key", equalTo("research/lq-a"));
        get("/api/v1/queue-wait", may("tenant")).statusCode(200).body("[0].key", equalTo("research")).body("[0].count", equalTo(2));
        get("/api/v1/queue-wait", may("scheduler")).statusCode(200)
                .body("[0].key", equalTo("default-scheduler")).body("[0].count", equalTo(1)).body("[0].p50Seconds", equalTo(0));
    }

    @Test
    void theFixtureWorkloadWaitedTwoHoursTwentyFourMinutesTwentySixSeconds() {
        get("/api/v1/queue-wait", Map.of("from", "2025-03-14T00:00:00Z", "to", "2025-03-15T00:00:00Z", "groupBy", "clusterQueue"))
                .statusCode(200).body("[0].key", equalTo("gpu-research")).body("[0].p50Seconds", equalTo(8666));
        String decisions = get("/api/v1/scheduling-decisions", Map.of("namespace", "research", "workload", "w-fixture")).statusCode(200)
                .body("kind", equalTo("Workload")).body("state", equalTo("ADMITTED"))
                // the ClusterQueue that admitted it, not cq-a, which its LocalQueue lq-a feeds now
                .body("queue.clusterQueue", equalTo("gpu-research")).body("queue.localQueue", equalTo("lq-a"))
                .body("queue.volcanoQueue", nullValue())
                .body("waits[0].waitSeconds", equalTo(8666))
                .body("trail.step", equalTo(List.of("created", "quota-reserved", "admitted")))
                .body("trail[1].detail", containsString("clusterQueue gpu-research")).extract().asString();
        Contract.record("ledger", "scheduling-decisions", decisions); // the console's Queues page draws the trail
    }

    @Test
    void pendingListsWhatWaitsWithItsClusterQueueAgeAndReason() {
        String pending = get("/api/v1/queue-wait/pending", Map.of("cluster", "gov", "at", "2024-02-01T11:30:00Z"))
                .statusCode(200)
                .body("$", hasSize(1))
                .body("[0].name", equalTo("w-a3")).body("[0].source", equalTo("kueue"))
                .body("[0].clusterQueue", equalTo("cq-a")).body("[0].ageSeconds", equalTo(3600))
                .body("[0].reasonClass", equalTo("quota")).body("[0].rootCauseClass", equalTo("control-plane"))
                .body("[0].message", containsString("insufficient unused quota")).extract().asString();
        // the console's Queues page lists what waits; slo-service's BLOCKED assertions read it
        Contract.record("ledger", "queue-wait-pending", pending);
        // not admitted yet: its ClusterQueue is the one its LocalQueue feeds
        get("/api/v1/scheduling-decisions", Map.of("namespace", "research", "workload", "w-a3", "cluster", "gov")).statusCode(200)
                .body("queue.clusterQueue", equalTo("cq-a")).body("queue.localQueue", equalTo("lq-a"));
    }

    @Test
    void clusterQueueRejectionRateAndQuota() {
        get("/api/v1/cluster-queues", Map.of("from", "2024-02-01T00:00:00Z", "to", "2024-03-01T00:00:00Z", "cluster", "gov"))
                .statusCode(200).body("$", hasSize(1))
                .body("[0].name", equalTo("cq-a")).body("[0].workloads", equalTo(3)).body("[0].rejected", equalTo(1))
                .body("[0].rejectionRate", equalTo(0.333333f)).body("[0].admitted", equalTo(2)).body("[0].pendingNow", equalTo(1))
                // w-a3, refused and never admitted, is the rejection; no workload was refused and admitted later
                .body("[0].refusedThenAdmitted", equalTo(0))
                .body("[0].resources[0].nominal", equalTo(8)).body("[0].resources[0].reserved", equalTo(10))
                .body("[0].resources[0].borrowing", equalTo(true)).body("[0].resources[0].withinLimits", equalTo(true));
    }

    @Test
    void volcanoWaitAndPhaseTrail() {
        get("/api/v1/queue-wait", Map.of("from", "2020-08-01T00:00:00Z", "to", "2020-09-01T00:00:00Z", "groupBy", "volcanoQueue"))
                .statusCode(200).body("[0].key", equalTo("default")).body("[0].p50Seconds", equalTo(7));
        get("/api/v1/scheduling-decisions", Map.of("podGroup", "default/test")).statusCode(200)
                .body("phases.phase", equalTo(List.of("Pending", "Running")))
                .body("queue.volcanoQueue", equalTo("default")).body("queue.clusterQueue", nullValue())
                .body("trail.step", equalTo(List.of("created", "unschedulable", "scheduled", "phase")))
                .body("trail[1].reasonClass", equalTo("gang"));
    }

    @Test
    void failuresByCauseWithRateAndMttr() {
        Map<String, String> window = Map.of("from", "2024-02-01T00:00:00Z", "to", "2024-02-02T00:00:00Z", "groupBy", "cause", "cluster", "gov");
        String failures = get("/api/v1/failures", window).statusCode(200).body("$", hasSize(2))
                .body("[0].key", equalTo("gpu-lost")).body("[0].rootCauseClass", equalTo("data-plane"))
                .body("[0].count", equalTo(1)).body("[0].gpuHours", equalTo(20)).body("[0].podStarts", equalTo(1))
                .body("[0].ratePer1000GpuHours", equalTo(50)).body("[0].ratePerPodStart", equalTo(1))
                .body("[0].mttrP50Seconds", equalTo(1800)).body("[0].mttrMeanSeconds", equalTo(1800)).body("[0].open", equalTo(0))
                .body("[1].key", equalTo("oom")).body("[1].rootCauseClass", equalTo("workload"))
                .body("[1].mttrP50Seconds", equalTo(60)).body("[1].ratePer1000GpuHours", equalTo(50)).extract().asString();
        Contract.record("ledger", "failures", failures); // the console's Failures page draws them per cause
        get("/api/v1/failures", Map.of("from", "2024-02-01T00:00:00Z", "to", "2024-02-02T00:00:00Z", "groupBy", "tenant", "cluster", "gov"))
                .statusCode(200).body("$", hasSize(1)).body("[0].key", equalTo("ml")).body("[0].count", equalTo(2))
                .body("[0].ratePer1000GpuHours", equalTo(100)).body("[0].mttrP50Seconds", equalTo(60))
                .body("[0].mttrMeanSeconds", equalTo(930));
        get("/api/v1/failures", Map.of("from", "2024-02-01T00:00:00Z", "to", "2024-02-02T00:00:00Z", "groupBy", "node", "cluster", "gov"))
                .statusCode(200).body("[0].key", equalTo("gpu-9")).body("[0].count", equalTo(2));
        get("/api/v1/failures/incidents", Map.of("from", "2024-02-01T00:00:00Z", "to", "2024-02-02T00:00:00Z", "cluster", "gov"))
                .statusCode(200).body("cause", equalTo(List.of("oom", "gpu-lost")))
                .body("[1].gpuUuid", equalTo("GPU-9-0")).body("[1].repairSeconds", equalTo(1800));
    }

    @Test
    void theSameBatchTwiceIsStoredOnce() {
        given().contentType(ContentType.JSON).body(GOVERNANCE).post("/api/v1/facts/governance").then().statusCode(200)
                .body("accepted", equalTo(0)).body("duplicates", equalTo(GOVERNANCE_FACTS));
        get("/api/v1/queue-wait", may("clusterQueue")).statusCode(200).body("[0].count", equalTo(2));
    }

    @Test
    void aBatchWithoutNaturalKeysIsAProblemNamingTheField() {
        given().contentType(ContentType.JSON).body("{\"cluster\":\"gov\",\"workloads\":[{\"namespace\":\"n\"}]}")
                .post("/api/v1/facts/governance").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("workloads[0].uid"));
        given().contentType(ContentType.JSON).body("{\"cluster\":\"Not A Label\"}")
                .post("/api/v1/facts/governance").then().statusCode(400).body("field", equalTo("cluster"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "/api/v1/queue-wait?from=2024-02-01T00:00:00Z&to=2024-03-01T00:00:00Z&groupBy=team | groupBy | 400",
            "/api/v1/queue-wait?from=yesterday&to=2024-03-01T00:00:00Z | from | 400",
            "/api/v1/queue-wait?from=2024-03-01T00:00:00Z&to=2024-02-01T00:00:00Z | to | 400",
            "/api/v1/failures?from=2024-02-01T00:00:00Z&to=2024-03-01T00:00:00Z&groupBy=colour | groupBy | 400",
            "/api/v1/scheduling-decisions?namespace=research | pod | 400",
            "/api/v1/scheduling-decisions?workload=w-a1 | namespace | 400",
            "/api/v1/scheduling-decisions?namespace=research&workload=nope | workload | 404",
            "/api/v1/queue-wait/pending?at=soon | at | 400",
    })
    void badQueriesAreProblems(String url, String field, int status) {
        given().get(url).then().statusCode(status).contentType("application/problem+json").body("field", equalTo(field));
    }

    @Test
    void aPodTrailShowsTheOomAndItsRecovery() {
        var trail = get("/api/v1/scheduling-decisions", Map.of("namespace", "ml", "pod", "trainer-0", "cluster", "gov"))
                .statusCode(200).body("state", equalTo("FINISHED")).body("queue", nullValue()).extract().jsonPath().getList("trail.step", String.class);
        assertEquals(List.of("created", "scheduled", "container", "container"), trail, "OOMKilled, then CrashLoopBackOff");
    }
}
