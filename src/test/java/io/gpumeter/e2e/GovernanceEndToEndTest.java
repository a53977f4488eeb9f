package io.gpumeter.e2e;

import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Governance end to end: Kueue objects, GPU pods and a kernel log replayed through the collector into the ledger,
 * answered by the queue-wait distribution, the pending list, the scheduling audit and the failure report.
 * <p>
 * 46 Workloads in two ClusterQueues (fed by one LocalQueue each) are generated below with known waits; four of
 * them are preempted once and wait again from their requeue, two are still refused for quota. The expected
 * nearest-rank percentiles are found here by their definition (the smallest observed wait that at least p % of
 * the waits do not exceed), independently of the service's rank arithmetic.
 * <p>
 * The failure history, worked out by hand (window 2026-03-01, 2 GPU pods of 1 card each, 10 h each = 20 GPU-h):
 * <pre>
 * trainer-0  OOM-killed 04:00:00, running again 04:00:30          oom           30 s   workload
 * server-0   ImagePullBackOff from 00:00:05, running 00:10:05      image-pull   600 s   workload
 * card 0000:3b:00 of gpu-e2e-1: Xid 79 at 05:00, announced 05:45  gpu-lost    2700 s   data-plane
 * each cause: 1 x 1000 / 20 = 50 per 1,000 GPU-h, 1 / 2 = 0.5 per pod start
 * workload class: 2 failures, 100 per 1,000 GPU-h, 1 per start, MTTR p50 30 s (rank 1 of 2), mean 315 s
 * </pre>
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(GovernanceEndToEndTest.StartSuite.class)
class GovernanceEndToEndTest {

    static final String CLUSTER = "gov-e2e";
    static final Instant BASE = Instant.parse("2026-03-01T00:00:00Z");
    static Suite suite;
    static String stream;
    /** The waits (seconds) each ClusterQueue's admissions had, as generated. */
    static final Map<String, List<Long>> WAITS = new TreeMap<>();
    static int rv = 1000;

    /** Starts (once) the suite shared by the end-to-end tests. */
    static final class StartSuite implements BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) {
            suite = SuiteExtension.suite(context);
        }
    }

    @BeforeAll
    static void generate() {
        List<String> lines = new ArrayList<>();
        lines.add(namespace("team-a", "acme"));
        lines.add(namespace("team-b", "globex"));
        lines.add(event("ADDED", """
                {"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"ClusterQueue","metadata":{"name":"cq-train","uid":"cq-t","resourceVersion":"%d"},
                 "spec":{"cohort":"gpu","resourceGroups":[{"flavors":[{"name":"a100-80g","resources":[{"name":"nvidia.com/gpu","nominalQuota":16}]}]}]}}"""
                .formatted(++rv)));
        lines.add(event("ADDED", """
                {"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"ClusterQueue","metadata":{"name":"cq-infer","uid":"cq-i","resourceVersion":"%d"},
                 "spec":{"cohort":"gpu","resourceGroups":[{"flavors":[{"name":"l40s","resources":[{"name":"nvidia.com/gpu","nominalQuota":8}]}]}]}}"""
                .formatted(++rv)));
        lines.add(event("ADDED", localQueue("team-a", "lq-train", "cq-train")));
        lines.add(event("ADDED", localQueue("team-b", "lq-infer", "cq-infer")));
        for (int i = 0; i < 24; i++) {
            lines.addAll(workload("team-a", "lq-train", "cq-train", i));
        }
        for (int i = 0; i < 20; i++) {
            lines.addAll(workload("team-b", "lq-infer", "cq-infer", 100 + i));
        }
        lines.addAll(refused("team-a", "lq-train", 200));
        lines.addAll(refused("team-a", "lq-train", 201));
        lines.addAll(failingPods());
        stream = String.join("\n", lines) + "\n";
    }

    static String event(String type, String object) {
        return "{\"type\":\"" + type + "\",\"object\":" + object.replace("\n", "") + "}";
    }

    static String namespace(String name, String tenant) {
        return event("ADDED", """
                {"kind":"Namespace","apiVersion":"v1","metadata":{"name":"%s","uid":"ns-%s","resourceVersion":"%d",
                 "labels":{"gpumeter.io/tenant":"%s"}}}""".formatted(name, name, ++rv, tenant));
    }

    static String localQueue(String namespace, String name, String clusterQueue) {
        return """
                {"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"LocalQueue","metadata":{"name":"%s","namespace":"%s","uid":"lq-%s",
                 "resourceVersion":"%d"},"spec":{"clusterQueue":"%s"}}""".formatted(name, namespace, name, ++rv, clusterQueue);
    }

    static String workloadObject(String namespace, String queue, int i, String admission, String conditions) {
        return """
                {"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"Workload","metadata":{"name":"job-%d","namespace":"%s","uid":"wl-%d",
                 "resourceVersion":"%d","creationTimestamp":"%s"},
                 "spec":{"queueName":"%s","podSets":[{"name":"main","count":1,"template":{"spec":{"containers":[{"name":"c",
                  "resources":{"requests":{"nvidia.com/gpu":"1"}}}]}}}]},
                 "status":{%s"conditions":[%s]}}""".formatted(i, namespace, i, ++rv, created(i), queue, admission, conditions);
    }

    static Instant created(int i) {
        return BASE.plusSeconds(420L * (i % 100) + 3600L * (i / 100));
    }

    static String admittedAt(String clusterQueue, Instant at) {
        return """
                {"type":"QuotaReserved","status":"True","reason":"QuotaReserved","message":"Quota reserved in ClusterQueue %s","lastTransitionTime":"%s"},
                {"type":"Admitted","status":"True","reason":"Admitted","message":"The workload is admitted","lastTransitionTime":"%s"}"""
                .formatted(clusterQueue, at, at);
    }

    static String admission(String clusterQueue) {
        return "\"admission\":{\"clusterQueue\":\"" + clusterQueue + "\",\"podSetAssignments\":[{\"name\":\"main\",\"count\":1,"
                + "\"flavors\":{\"nvidia.com/gpu\":\"gpu\"},\"resourceUsage\":{\"nvidia.com/gpu\":\"1\"}}]},";
    }

    static final String REFUSAL = "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100-80g, 1 more needed";

    /** A workload refused once, admitted after a spread of waits; every sixth is preempted and waits again. */
    static List<String> workload(String namespace, String queue, String clusterQueue, int i) {
        List<String> out = new ArrayList<>();
        Instant created = created(i);
        long wait = 20 + (i * 7919L) % 1800;
        Instant admitted = created.plusSeconds(wait);
        out.add(event("ADDED", workloadObject(namespace, queue, i, "", "")));
        out.add(event("MODIFIED", workloadObject(namespace, queue, i, "", """
                {"type":"QuotaReserved","status":"False","reason":"Pending","message":"%s","lastTransitionTime":"%s"}"""
                .formatted(REFUSAL, created.plusSeconds(1)))));
        out.add(event("MODIFIED", workloadObject(namespace, queue, i, admission(clusterQueue), admittedAt(clusterQueue, admitted))));
        WAITS.computeIfAbsent(clusterQueue, k -> new ArrayList<>()).add(wait);
        if (i % 6 == 5) {
            Instant requeued = admitted.plusSeconds(900);
            long again = 60 + (i * 31L) % 400;
            out.add(event("MODIFIED", workloadObject(namespace, queue, i, "", """
                    {"type":"QuotaReserved","status":"False","reason":"Preempted","message":"Preempted to accommodate a workload (UID: wl-x) due to prioritization in the ClusterQueue","lastTransitionTime":"%s"},
                    {"type":"Evicted","status":"True","reason":"Preempted","message":"Preempted to accommodate a workload (UID: wl-x) due to prioritization in the ClusterQueue","lastTransitionTime":"%s"},
                    {"type":"Requeued","status":"True","reason":"Preempted","message":"requeued","lastTransitionTime":"%s"}"""
                    .formatted(requeued, requeued, requeued))));
            out.add(event("MODIFIED", workloadObject(namespace, queue, i, admission(clusterQueue),
                    admittedAt(clusterQueue, requeued.plusSeconds(again)) + """
                    ,{"type":"Requeued","status":"True","reason":"Preempted","message":"requeued","lastTransitionTime":"%s"}"""
                            .formatted(requeued))));
            WAITS.get(clusterQueue).add(again);
        }
        return out;
    }

    static List<String> refused(String namespace, String queue, int i) {
        return List.of(event("ADDED", workloadObject(namespace, queue, i, "", "")),
                event("MODIFIED", workloadObject(namespace, queue, i, "", """
                        {"type":"QuotaReserved","status":"False","reason":"Pending","message":"%s","lastTransitionTime":"%s"}"""
                        .formatted(REFUSAL, created(i).plusSeconds(1)))));
    }

    static String pod(String name, String namespace, String phase, String type, String containerStatus, String readyAt,
                      String deletion) {
        return event(type, """
                {"kind":"Pod","apiVersion":"v1","metadata":{"name":"%s","namespace":"%s","uid":"uid-%s","resourceVersion":"%d",
                 "creationTimestamp":"2026-03-01T00:00:00Z"%s,"ownerReferences":[{"kind":"Job","name":"%s","controller":true}]},
                 "spec":{"nodeName":"gpu-e2e-1","schedulerName":"default-scheduler","containers":[{"name":"main","resources":{"limits":{"nvidia.com/gpu":"1"}}}]},
                 "status":{"phase":"%s","conditions":[{"type":"PodScheduled","status":"True","lastTransitionTime":"2026-03-01T00:00:00Z"},
                  {"type":"Ready","status":"False","lastTransitionTime":"%s"}],"containerStatuses":[%s]}}"""
                .formatted(name, namespace, name, ++rv, deletion == null ? "" : ",\"deletionTimestamp\":\"" + deletion + "\"",
                        name, phase, readyAt, containerStatus));
    }

    static List<String> failingPods() {
        String oom = "\"lastState\":{\"terminated\":{\"reason\":\"OOMKilled\",\"exitCode\":137,\"startedAt\":\"2026-03-01T00:00:00Z\",\"finishedAt\":\"2026-03-01T04:00:00Z\"}}";
        return List.of(
                pod("trainer-0", "team-a", "Running", "ADDED",
                        "{\"name\":\"main\",\"restartCount\":0,\"state\":{\"running\":{\"startedAt\":\"2026-03-01T00:00:00Z\"}}}", "2026-03-01T00:00:00Z", null),
                pod("trainer-0", "team-a", "Running", "MODIFIED",
                        "{\"name\":\"main\",\"restartCount\":1,\"state\":{\"waiting\":{\"reason\":\"CrashLoopBackOff\"}}," + oom + "}",
                        "2026-03-01T04:00:00Z", null),
                pod("trainer-0", "team-a", "Running", "MODIFIED",
                        "{\"name\":\"main\",\"restartCount\":1,\"state\":{\"running\":{\"startedAt\":\"2026-03-01T04:00:30Z\"}}," + oom + "}",
                        "2026-03-01T04:00:30Z", null),
                pod("trainer-0", "team-a", "Succeeded", "MODIFIED",
                        "{\"name\":\"main\",\"restartCount\":1,\"state\":{\"terminated\":{\"reason\":\"Completed\",\"exitCode\":0,"
                                + "\"startedAt\":\"2026-03-01T04:00:30Z\",\"finishedAt\":\"2026-03-01T10:00:00Z\"}}," + oom + "}",
                        "2026-03-01T10:00:00Z", null),
                pod("server-0", "team-b", "Pending", "ADDED",
                        "{\"name\":\"main\",\"restartCount\":0,\"state\":{\"waiting\":{\"reason\":\"ImagePullBackOff\",\"message\":\"Back-off pulling image\"}}}",
                        "2026-03-01T00:00:05Z", null),
                pod("server-0", "team-b", "Running", "MODIFIED",
                        "{\"name\":\"main\",\"restartCount\":0,\"state\":{\"running\":{\"startedAt\":\"2026-03-01T00:10:05Z\"}}}",
                        "2026-03-01T00:10:06Z", null),
                pod("server-0", "team-b", "Running", "DELETED",
                        "{\"name\":\"main\",\"restartCount\":0,\"state\":{\"terminated\":{\"reason\":\"Completed\",\"exitCode\":0,"
                                + "\"startedAt\":\"2026-03-01T00:10:05Z\",\"finishedAt\":\"2026-03-01T10:00:00Z\"}}}",
                        "2026-03-01T10:00:00Z", "2026-03-01T10:00:00Z"));
    }

    /** The nearest-rank percentile by its definition: the smallest value that at least p % of the values do not exceed. */
    static long byDefinition(List<Long> values, int p) {
        long best = Long.MAX_VALUE;
        for (long candidate : values) {
            long atMost = values.stream().filter(v -> v <= candidate).count();
            if (atMost * 100 >= (long) p * values.size() && candidate < best) {
                best = candidate;
            }
        }
        return best;
    }

    static String url(Service service, String path) {
        return suite.url(service).resolve(path).toString();
    }

    static Response replay(String body) {
        return given().contentType("application/x-ndjson").body(body.getBytes(StandardCharsets.UTF_8))
                .queryParam("cluster", CLUSTER).post(url(Service.COLLECTOR, "/api/v1/ingest/kubernetes"));
    }

    static List<Map<String, Object>> rows(String path, Map<String, String> params) {
        return given().queryParams(params).get(url(Service.LEDGER, path)).then().statusCode(200).extract().jsonPath().getList("$");
    }

    static Map<String, String> march(String groupBy) {
        return Map.of("from", "2026-03-01T00:00:00Z", "to", "2026-03-03T00:00:00Z", "groupBy", groupBy, "cluster", CLUSTER);
    }

    static BigDecimal number(Object value) {
        return new BigDecimal(String.valueOf(value));
    }

    @Test
    @Order(1)
    void replayStoresGovernanceFactsBesideThePodFacts() {
        replay(stream).then().statusCode(200)
                .body("accepted", equalTo(2 + 7))
                .body("skipped", equalTo(0));
        int governed = replay(stream).then().statusCode(200).extract().path("governance.duplicates");
        assertTrue(governed > 46 * 2, "every Workload version, queue object and pod state is a governance fact: " + governed);
    }

    @Test
    @Order(2)
    void queueWaitPerClusterQueueIsTheNearestRankOfTheGeneratedWaits() {
        assertEquals(28, WAITS.get("cq-train").size(), "24 admissions and 4 readmissions");
        assertEquals(24, WAITS.get("cq-infer").size(), "20 admissions and 4 readmissions");
        List<Map<String, Object>> rows = rows("/api/v1/queue-wait", march("clusterQueue"));
        assertEquals(List.of("cq-infer", "cq-train"), rows.stream().map(r -> r.get("key")).toList());
        for (Map<String, Object> row : rows) {
            List<Long> waits = WAITS.get((String) row.get("key"));
            assertEquals(waits.size(), row.get("count"), row.toString());
            for (int p : new int[]{50, 95, 99}) {
                assertEquals(0, BigDecimal.valueOf(byDefinition(waits, p)).compareTo(number(row.get("p" + p + "Seconds"))),
                        "p" + p + " of " + row.get("key") + ": " + row);
            }
            assertEquals(0, BigDecimal.valueOf(waits.stream().mapToLong(Long::longValue).max().orElseThrow())
                    .compareTo(number(row.get("maxSeconds"))), row.toString());
        }
        List<Map<String, Object>> byTenant = rows("/api/v1/queue-wait", march("tenant"));
        assertEquals(List.of("acme", "globex"), byTenant.stream().map(r -> r.get("key")).toList());
        assertEquals(28, byTenant.get(0).get("count"));
    }

    @Test
    @Order(3)
    void theTwoRefusedWorkloadsWaitForQuota() {
        given().queryParam("cluster", CLUSTER).queryParam("at", "2026-03-01T03:00:00Z")
                .get(url(Service.LEDGER, "/api/v1/queue-wait/pending")).then().statusCode(200)
                .body("name", equalTo(List.of("job-200", "job-201")))
                .body("clusterQueue", equalTo(List.of("cq-train", "cq-train")))
                .body("reasonClass", equalTo(List.of("quota", "quota")))
                // job-200 was created at 02:00:00, job-201 at 02:07:00.
                .body("ageSeconds", equalTo(List.of(3600, 3180)));
        given().queryParam("namespace", "team-a").queryParam("workload", "job-5").queryParam("cluster", CLUSTER)
                .get(url(Service.LEDGER, "/api/v1/scheduling-decisions")).then().statusCode(200)
                .body("waits.size()", equalTo(2)).body("waits[1].requeued", equalTo(true))
                .body("trail.find { it.step == 'evicted' }.detail", equalTo("preempted by workload UID wl-x"));
    }

    @Test
    @Order(4)
    void failuresFromPodStatesAndAKernelLogHaveExactRatesAndMttr() {
        given().contentType("text/plain").queryParam("node", "gpu-e2e-1").queryParam("cluster", CLUSTER)
                .body("[Sun Mar  1 05:00:00 2026] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.\n"
                        + "[Sun Mar  1 05:45:00 2026] NVRM: GPU at PCI:0000:3b:00: GPU-e2e-aaaa\n")
                .post(url(Service.COLLECTOR, "/api/v1/ingest/kmsg")).then().statusCode(200)
                .body("xids", equalTo(1)).body("gpuAddresses", equalTo(1));
        Map<String, String> day = Map.of("from", "2026-03-01T00:00:00Z", "to", "2026-03-02T00:00:00Z", "cluster", CLUSTER);
        Map<String, String> byCause = new java.util.HashMap<>(day);
        byCause.put("groupBy", "cause");
        List<Map<String, Object>> rows = rows("/api/v1/failures", byCause);
        assertEquals(List.of("gpu-lost", "image-pull", "oom"), rows.stream().map(r -> r.get("key")).toList());
        assertRow(rows.get(0), 1, "20", "50", "0.5", "2700", "2700", "data-plane");
        assertRow(rows.get(1), 1, "20", "50", "0.5", "600", "600", "workload");
        assertRow(rows.get(2), 1, "20", "50", "0.5", "30", "30", "workload");
        Map<String, String> byClass = new java.util.HashMap<>(day);
        byClass.put("groupBy", "rootCause");
        List<Map<String, Object>> classes = rows("/api/v1/failures", byClass);
        assertEquals(List.of("data-plane", "workload"), classes.stream().map(r -> r.get("key")).toList());
        assertRow(classes.get(1), 2, "20", "100", "1", "30", "315", null);
    }

    static void assertRow(Map<String, Object> row, int count, String hours, String per1000, String perStart, String p50,
                          String mean, String rootCause) {
        assertEquals(count, row.get("count"), row.toString());
        assertEquals(0, new BigDecimal(hours).compareTo(number(row.get("gpuHours"))), row.toString());
        assertEquals(0, new BigDecimal(per1000).compareTo(number(row.get("ratePer1000GpuHours"))), row.toString());
        assertEquals(0, new BigDecimal(perStart).compareTo(number(row.get("ratePerPodStart"))), row.toString());
        assertEquals(0, new BigDecimal(p50).compareTo(number(row.get("mttrP50Seconds"))), row.toString());
        assertEquals(0, new BigDecimal(mean).compareTo(number(row.get("mttrMeanSeconds"))), row.toString());
        assertEquals(rootCause, row.get("rootCauseClass"), row.toString());
    }
}
