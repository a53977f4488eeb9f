package io.gpumeter.ledger.triage.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.NodeTaint;
import io.gpumeter.common.fact.NotScheduled;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodPlacement;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.PodToleration;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cluster "tri-p" (no other test writes there), every fact sent through the intake. T = 2025-06-02T00:00Z.
 * <pre>
 * gpu-a1  gpu-pool=a100, 8 GPUs, allocatable 8, tainted nvidia.com/gpu:NoSchedule, device plugin ready (T+1h)
 * gpu-b1  gpu-pool=b200, 8 GPUs, allocatable 0, same taint, device plugin CrashLoopBackOff (T+1h)
 * holder  runs on gpu-a1 from T+4h holding all 8 of its GPUs
 * wait-a, wait-a2 (Job train-a) select gpu-pool=a100; wait-b (Job train-b) selects gpu-pool=b200; each asks 2 GPUs,
 *         tolerates the taint, created T+3h, and carries the same refusal as its PodScheduled=False condition only
 *         ("0/2 nodes are available: 2 Insufficient nvidia.com/gpu."), no FailedScheduling event
 * </pre>
 * At T+6h wait-a and wait-a2 wait on a full cluster, wait-b on a device plugin that does not report; at T+3h30m, before
 * holder took gpu-a1, wait-a's refusal is not the nodes' doing.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class PendingTriageTest {

    static final String CLUSTER = "tri-p";
    static final Instant T = Instant.parse("2025-06-02T00:00:00Z");
    static final String REFUSAL = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are"
            + " available: 2 No preemption victims found for incoming pod.";
    static final NodeTaint GPU_TAINT = new NodeTaint("nvidia.com/gpu", null, "NoSchedule");
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private static boolean loaded;

    @Inject
    PendingTriage triage;

    static Instant at(Duration d) {
        return T.plus(d);
    }

    static NodeFact node(String name, String pool) {
        return new NodeFact(name, "u-" + name, "10", WatchEventType.ADDED, at(Duration.ofHours(1)),
                Map.of("gpu-pool", pool, "kubernetes.io/hostname", name, "nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB",
                        "nvidia.com/gpu.count", "8"), List.of());
    }

    static NodeStatusFact status(String name, long allocatable) {
        return new NodeStatusFact(name, "u-" + name, "11", WatchEventType.ADDED, at(Duration.ofHours(1)),
                T.minus(Duration.ofDays(10)), Map.of("nvidia.com/gpu", 8L), Map.of("nvidia.com/gpu", allocatable), false,
                List.of(GPU_TAINT), Map.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"), Map.of());
    }

    static StackPodFact plugin(String node, boolean ready) {
        return new StackPodFact("gpu-operator", "nvidia-device-plugin-daemonset-" + node, "u-dp-" + node, "12",
                WatchEventType.ADDED, at(Duration.ofHours(1)), "device-plugin", node,
                List.of("nvcr.io/nvidia/k8s-device-plugin:v0.15.0"), "Running", ready, ready ? 0 : 9,
                ready ? null : "CrashLoopBackOff");
    }

    static PodStatusFact waiting(String name, String job, String pool) {
        Instant created = at(Duration.ofHours(3));
        return new PodStatusFact("u-" + name, "team-a", name, "20", WatchEventType.ADDED, created.plusSeconds(5), created,
                null, null, null, "default-scheduler", "Pending", null, null, new Owner("Job", job), null, null,
                Map.of("nvidia.com/gpu", 2L), null, List.of(), new NotScheduled("Unschedulable", REFUSAL, created.plusSeconds(1)),
                new PodPlacement(Map.of("gpu-pool", pool), List.of(),
                        List.of(new PodToleration("nvidia.com/gpu", "Exists", null, "NoSchedule"))));
    }

    static PodFact holder() {
        Instant start = at(Duration.ofHours(4));
        return new PodFact("u-holder", "team-c", "holder", "30", WatchEventType.MODIFIED, start.plusSeconds(10), start, start,
                "gpu-a1", "Running", "default-scheduler", false, null, null, new Owner("Job", "holder"), Map.of(),
                Map.of("nvidia.com/gpu", 8L), List.of(), List.of());
    }

    static void post(String path, Object body) throws Exception {
        given().contentType(ContentType.JSON).body(JSON.writeValueAsString(body)).post(path).then().statusCode(200);
    }

    @BeforeEach
    void load() throws Exception {
        if (loaded) {
            return;
        }
        loaded = true;
        post("/api/v1/facts", new FactBatch(CLUSTER, List.of(), List.of(node("gpu-a1", "a100"), node("gpu-b1", "b200")),
                List.of(holder()), List.of(), List.of(), List.of()));
        post("/api/v1/facts/governance", GovernanceBatch.of(CLUSTER, List.of(status("gpu-a1", 8), status("gpu-b1", 0),
                plugin("gpu-a1", true), plugin("gpu-b1", false), waiting("wait-a", "train-a", "a100"),
                waiting("wait-a2", "train-a", "a100"), waiting("wait-b", "train-b", "b200"))));
    }

    private Triage triage(String pod, Instant at) {
        return triage.diagnose(TriageRequest.of("team-a", pod, null, null, null, null, CLUSTER, null), at)
                .await().atMost(Duration.ofSeconds(30));
    }

    @Test
    void theSameRefusalIsAFullClusterOnOneNodeAndADevicePluginNotReportingOnTheOther() {
        Triage full = triage("wait-a", at(Duration.ofHours(6)));
        assertEquals(Symptom.PENDING, full.symptom());
        assertEquals("cluster-full", full.cause());
        assertEquals("control-plane", full.layer());
        assertEquals(Confidence.HIGH, full.confidence());
        assertEquals(new Triage.Subject(Triage.SubjectKind.POD, CLUSTER, "team-a", "wait-a", "u-wait-a", "team-a"),
                full.subject());
        assertEquals("CLUSTER", full.scope().level());
        assertEquals(List.of("team-a/wait-a2"), full.scope().alike(), "the other pod the full nodes keep waiting");
        assertEquals(new Triage.Recurrence(2, at(Duration.ofHours(3))), full.recurrence(), "train-a's two pods");
        assertEquals(List.of(), full.changes());
        assertNull(full.fix());
        assertEquals(new Triage.Evidence(at(Duration.ofHours(3)).plusSeconds(1), "pod-status", "Unschedulable: " + REFUSAL,
                "kubectl describe pod -n 'team-a' 'wait-a'"), full.evidence().get(0));
        assertTrue(full.evidence().contains(new Triage.Evidence(at(Duration.ofHours(1)), "node",
                "node gpu-a1: 8 of 8 allocatable nvidia.com/gpu held, 0 free; it needs 2", "kubectl describe node 'gpu-a1'")),
                full.evidence().toString());
        assertTrue(full.alternatives().stream().anyMatch(a -> a.cause().equals("no-device")), full.alternatives().toString());
        assertEquals(List.of(new Triage.Named(Triage.SubjectKind.POD, "team-a", "wait-a", "team-a"),
                new Triage.Named(Triage.SubjectKind.POD, "team-a", "wait-a2", "team-a")), full.named(),
                "every pod it names, with its tenant, for alert-service to cut a tenant's answer by");

        Triage blind = triage("wait-b", at(Duration.ofHours(6)));
        assertEquals("no-device", blind.cause());
        assertEquals("data-plane", blind.layer());
        assertEquals("NODE", blind.scope().level());
        assertEquals(List.of(), blind.scope().alike());
        assertTrue(blind.evidence().contains(new Triage.Evidence(at(Duration.ofHours(1)), "node",
                "node gpu-b1: allocatable nvidia.com/gpu 0 of capacity 8, 0 held", "kubectl get node 'gpu-b1' -o jsonpath='{.status.allocatable}'")),
                blind.evidence().toString());
        assertTrue(blind.evidence().stream().anyMatch(e -> e.source().equals("gpu-stack")
                && e.fact().contains("CrashLoopBackOff") && e.command().equals("kubectl get pods -n 'gpu-operator' -l"
                + " app=nvidia-device-plugin-daemonset -o wide --field-selector spec.nodeName='gpu-b1'")), blind.evidence().toString());
        assertTrue(blind.named().contains(new Triage.Named(Triage.SubjectKind.POD, "gpu-operator",
                "nvidia-device-plugin-daemonset-gpu-b1", "gpu-operator")), "the device plugin's pod it names: " + blind.named());
    }

    @Test
    void theCauseIsTheFactsOfTheInstantAsked() {
        Triage before = triage("wait-a", at(Duration.ofMinutes(210)));
        assertEquals("insufficient-resources", before.cause(), "gpu-a1 had all 8 free then: the nodes did not decide it");
        assertEquals(Confidence.LOW, before.confidence());
        assertTrue(before.checked().stream().anyMatch(c -> c.contains("node gpu-a1 has room")), before.checked().toString());
        assertNull(triage("wait-a", at(Duration.ofHours(2))), "not created yet: not waiting");
        assertNull(triage.diagnose(TriageRequest.of("team-a", "nobody", null, null, null, null, CLUSTER, null),
                at(Duration.ofHours(6))).await().atMost(Duration.ofSeconds(30)));
        assertNull(triage.diagnose(TriageRequest.of("team-c", "holder", null, null, null, null, CLUSTER, null),
                at(Duration.ofHours(6))).await().atMost(Duration.ofSeconds(30)), "a running pod does not wait");
    }

    @Test
    void thePendingReadAndTheSchedulingDecisionsSayTheCauseTheFactsDecide() {
        given().queryParams(Map.of("cluster", CLUSTER, "at", at(Duration.ofHours(6)).toString()))
                .get("/api/v1/queue-wait/pending").then().statusCode(200)
                .body("find { it.name == 'wait-a' }.reasonClass", equalTo("cluster-full"))
                .body("find { it.name == 'wait-a' }.rootCauseClass", equalTo("control-plane"))
                .body("find { it.name == 'wait-a' }.reason", equalTo("Unschedulable"))
                .body("find { it.name == 'wait-a' }.message", equalTo(REFUSAL))
                .body("find { it.name == 'wait-a2' }.reasonClass", equalTo("cluster-full"))
                .body("find { it.name == 'wait-b' }.reasonClass", equalTo("no-device"))
                .body("find { it.name == 'wait-b' }.rootCauseClass", equalTo("data-plane"));
        given().queryParams(Map.of("namespace", "team-a", "pod", "wait-b", "cluster", CLUSTER))
                .get("/api/v1/scheduling-decisions").then().statusCode(200)
                .body("state", equalTo("PENDING")).body("reasonClass", equalTo("no-device"))
                .body("rootCauseClass", equalTo("data-plane")).body("message", equalTo(REFUSAL))
                .body("trail.step", equalTo(List.of("created", "unschedulable")))
                .body("trail[1].reasonClass", equalTo("insufficient-resources"));
        given().queryParams(Map.of("namespace", "team-a", "pod", "wait-a", "cluster", CLUSTER))
                .get("/api/v1/scheduling-decisions").then().statusCode(200).body("reasonClass", equalTo("cluster-full"));
    }
}
