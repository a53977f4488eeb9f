package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.AdmissionCheckState;
import io.gpumeter.common.fact.LabelRequirement;
import io.gpumeter.common.fact.NodeSelectorTerm;
import io.gpumeter.common.fact.PodPlacement;
import io.gpumeter.common.shell.ShellWords;
import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.Triage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static io.gpumeter.ledger.triage.pending.PendingFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One fixture per pending cause, each triaging to its cause with the facts that decide it; and, for the causes the
 * scheduler words alike, pairs of fixtures that differ only in the deciding fact and triage apart.
 */
class PendingTreeTest {

    /** Four a100 nodes, every GPU of each held: the cluster is full. */
    private static Fleet full() {
        return fleet(node("gpu-a1", "a100", 8, 8, ready("gpu-a1")), node("gpu-a2", "a100", 8, 8, ready("gpu-a2")),
                node("gpu-a3", "a100", 8, 8, ready("gpu-a3")), node("gpu-a4", "a100", 8, 8, ready("gpu-a4")));
    }

    private static WaitDiagnosis pod(PodPlacement placement, Fleet fleet) {
        return PendingTree.diagnose(pending(view("trainer-0", "default-scheduler", TWO_GPUS, placement, INSUFFICIENT)), fleet);
    }

    static Stream<Arguments> causes() {
        Map<String, Supplier<WaitDiagnosis>> fixtures = new java.util.LinkedHashMap<>();
        fixtures.put("wrong-scheduler", () -> PendingTree.diagnose(pending(view("vgpu-0", "default-scheduler",
                Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpumem", 8000L), pool("a100"), null)), full()));
        fixtures.put("gpumem-conflict", () -> PendingTree.diagnose(pending(view("vgpu-1", "hami-scheduler",
                Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpumem", 8000L, "nvidia.com/gpumem-percentage", 50L),
                pool("a100"), null)), full()));
        fixtures.put("invalid-request", () -> PendingTree.diagnose(pending(view("vgpu-2", "hami-scheduler",
                Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpucores", 150L), pool("a100"), null)), full()));
        fixtures.put("invalid-request (a MIG profile no node offers)", () -> PendingTree.diagnose(pending(view("mig-0",
                "default-scheduler", Map.of("nvidia.com/mig-3g.40gb", 1L), pool("a100"),
                "0/4 nodes are available: 4 Insufficient nvidia.com/mig-3g.40gb.")), fleet(node("gpu-m1", "a100",
                Map.of("nvidia.com/mig-1g.10gb", 7L), Map.of("nvidia.com/mig-1g.10gb", 7L), Map.of(), ready("gpu-m1"), false))));
        fixtures.put("invalid-request (more than any node has)", () -> PendingTree.diagnose(pending(view("huge-0",
                "default-scheduler", Map.of("nvidia.com/gpu", 16L), pool("a100"), INSUFFICIENT)), full()));
        fixtures.put("no-matching-node", () -> pod(pool("h100"), full()));
        fixtures.put("affinity-or-taint", () -> pod(new PodPlacement(Map.of("gpu-pool", "a100"), List.of(), List.of()),
                fleet(node("gpu-a1", "a100", 8, 0, ready("gpu-a1"), GPU_TAINT))));
        fixtures.put("affinity-or-taint (cordoned)", () -> pod(pool("a100"), fleet(node("gpu-a1", "a100",
                Map.of("nvidia.com/gpu", 8L), Map.of("nvidia.com/gpu", 8L), Map.of(), ready("gpu-a1"), true))));
        fixtures.put("cluster-full", () -> pod(pool("a100"), full()));
        fixtures.put("no-device", () -> pod(pool("a100"), fleet(node("gpu-a1", "a100", 0, 0, crashLooping("gpu-a1")),
                node("gpu-a2", "a100", 8, 8, ready("gpu-a2")))));
        fixtures.put("no-device (the kubelet's admission)", () -> PendingTree.diagnose(pending(refusedByKubelet("adm-0",
                "UnexpectedAdmissionError", "Allocate failed due to no healthy devices present")), full()));
        fixtures.put("topology-affinity", () -> PendingTree.diagnose(pending(refusedByKubelet("numa-0",
                "TopologyAffinityError", "Resources cannot be allocated with Topology locality")), full()));
        fixtures.put("insufficient-resources", () -> pod(pool("a100"), fleet(node("gpu-a1", "a100", 8, 2, ready("gpu-a1")))));
        fixtures.put("quota", () -> PendingTree.diagnose(pending(workload("job-quota", true, List.of(condition("QuotaReserved",
                "False", "Pending", "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu"
                        + " in flavor a100, 6 more needed")), List.of()), clusterQueue(6), position(1)), full()));
        fixtures.put("flavor", () -> PendingTree.diagnose(pending(workload("job-flavor", true, List.of(condition("QuotaReserved",
                "False", "Pending", "couldn't assign flavors to pod set main: flavor a100 doesn't match node affinity")),
                List.of()), clusterQueue(0), null), full()));
        fixtures.put("queued", () -> PendingTree.diagnose(pending(workload("job-queued", true, List.of(), List.of()),
                clusterQueue(0), position(3)), full()));
        fixtures.put("inactive", () -> PendingTree.diagnose(pending(workload("job-off", false, List.of(), List.of()),
                clusterQueue(0), null), full()));
        fixtures.put("inactive (its ClusterQueue)", () -> PendingTree.diagnose(pending(workload("job-cq-off", true, List.of(),
                List.of()), clusterQueue(0, condition("Active", "False", "FlavorNotFound", "Can't admit new workloads;"
                + " some flavors are not found")), position(0)), full()));
        fixtures.put("admission-check", () -> PendingTree.diagnose(pending(workload("job-check", true, List.of(
                condition("QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue cq-a")),
                List.of(new AdmissionCheckState("provisioning", "Pending", "waiting for capacity", CREATED))),
                clusterQueue(8), null), full()));
        fixtures.put("gang", () -> PendingTree.diagnose(pendingGroup("3/4 tasks in gang unschedulable: pod group is not"
                + " ready, 3 Pending, 4 minAvailable; Pending: 3 Unschedulable"), full()));
        fixtures.put("volcano-queue", () -> PendingTree.diagnose(pendingGroup("queue resource quota insufficient"), full()));
        fixtures.put("other", () -> PendingTree.diagnose(pending(view("quiet-0", "default-scheduler", TWO_GPUS, pool("a100"),
                null)), Fleet.empty("demo", AT)));
        return fixtures.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("causes")
    void eachFixtureTriagesToItsCause(String name, Supplier<WaitDiagnosis> fixture) {
        WaitDiagnosis d = fixture.get();
        String expected = name.contains(" (") ? name.substring(0, name.indexOf(" (")) : name;
        assertEquals(expected, d.cause(), name + ": " + d);
        assertFalse(d.checked().isEmpty(), "says what it looked at: " + d);
        for (Triage.Evidence e : d.evidence()) {
            assertTrue(e.command() == null || ShellWords.onlyQuoted(e.command()), "a command runs as written: " + e.command());
            assertTrue(e.command() != null && e.command().startsWith("kubectl "), "each fact says how to see it: " + e);
        }
        if (!"other".equals(expected)) {
            assertFalse(d.evidence().isEmpty(), "a cause comes with the facts that decide it: " + d);
        } else {
            assertEquals(Confidence.LOW, d.confidence());
            assertTrue(d.checked().stream().anyMatch(c -> c.contains("could not be read")), "says what it could not read: " + d.checked());
        }
    }

    // ---- the pairs the scheduler's message does not tell apart ----

    @Test
    void allocatableZeroIsTheDevicePluginNotReportingWhereAllOfItHeldIsAFullCluster() {
        WaitDiagnosis blind = pod(pool("a100"), fleet(node("gpu-a1", "a100", 0, 0, ready("gpu-a1"))));
        WaitDiagnosis full = pod(pool("a100"), fleet(node("gpu-a1", "a100", 8, 8, ready("gpu-a1"))));

        assertEquals("no-device", blind.cause());
        assertEquals("data-plane", blind.layer().label());
        assertEquals("NODE", blind.scope());
        assertEquals(List.of("gpu-a1"), blind.nodes());
        assertTrue(has(blind, "node gpu-a1: allocatable nvidia.com/gpu 0 of capacity 8"), blind.evidence().toString());
        assertTrue(blind.alternatives().stream().anyMatch(a -> a.cause().equals("cluster-full")
                && a.ruledOutBy().contains("0 held")), blind.alternatives().toString());

        assertEquals("cluster-full", full.cause());
        assertEquals(Confidence.HIGH, full.confidence());
        assertEquals("CLUSTER", full.scope());
        assertTrue(has(full, "node gpu-a1: 8 of 8 allocatable nvidia.com/gpu held, 0 free"), full.evidence().toString());
        assertTrue(full.alternatives().stream().anyMatch(a -> a.cause().equals("no-device")), full.alternatives().toString());
    }

    @Test
    void aDevicePluginNotReadyIsNotReportingWhereAReadyOneWithAllHeldIsAFullCluster() {
        WaitDiagnosis blind = pod(pool("a100"), fleet(node("gpu-a1", "a100", 8, 0, crashLooping("gpu-a1"))));
        WaitDiagnosis full = pod(pool("a100"), fleet(node("gpu-a1", "a100", 8, 8, ready("gpu-a1"))));

        assertEquals("no-device", blind.cause());
        assertEquals(Confidence.HIGH, blind.confidence(), "the scheduler's want of GPUs and the plugin's state agree");
        Triage.Evidence plugin = blind.evidence().stream().filter(e -> e.source().equals("gpu-stack")).findFirst().orElseThrow();
        assertEquals("device plugin pod gpu-operator/nvidia-device-plugin-daemonset-gpu-a1 on node gpu-a1 is not ready"
                + " (CrashLoopBackOff), 7 restarts", plugin.fact());
        assertEquals("kubectl get pods -n 'gpu-operator' -l app=nvidia-device-plugin-daemonset -o wide"
                + " --field-selector spec.nodeName='gpu-a1'", plugin.command());
        assertEquals("cluster-full", full.cause());
    }

    @Test
    void aHamiRequestGivenTheDefaultSchedulerIsTheWrongSchedulerWhereHamisOwnIsRefusedByATaint() {
        Map<String, Long> vgpu = Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpumem", 8000L);
        PodPlacement untolerating = new PodPlacement(Map.of("gpu-pool", "a100"), List.of(), List.of());
        Fleet tainted = fleet(node("gpu-a1", "a100", 8, 0, ready("gpu-a1"), GPU_TAINT),
                node("gpu-a2", "a100", 8, 0, ready("gpu-a2"), GPU_TAINT));

        WaitDiagnosis wrong = PendingTree.diagnose(pending(view("vgpu-0", "default-scheduler", vgpu, untolerating,
                INSUFFICIENT)), tainted);
        WaitDiagnosis refused = PendingTree.diagnose(pending(view("vgpu-0", "hami-scheduler", vgpu, untolerating,
                INSUFFICIENT)), tainted);

        assertEquals("wrong-scheduler", wrong.cause());
        assertEquals("data-plane", wrong.layer().label());
        assertTrue(wrong.evidence().get(0).fact().contains("spec.schedulerName is 'default-scheduler'"), wrong.evidence().toString());
        assertEquals("affinity-or-taint", refused.cause());
        assertEquals("control-plane", refused.layer().label());
        assertTrue(has(refused, "node gpu-a1 is tainted nvidia.com/gpu:NoSchedule, which the pod does not tolerate"),
                refused.evidence().toString());
        assertTrue(refused.alternatives().stream().anyMatch(a -> a.cause().equals("wrong-scheduler")
                && a.ruledOutBy().contains("hami-scheduler")), refused.alternatives().toString());
    }

    @Test
    void noNodeCarryingTheLabelsIsNoMatchingNodeWhereNodesThatCarryThemButRefuseItAreAffinityOrTaint() {
        Fleet fleet = fleet(node("gpu-a1", "a100", 8, 0, ready("gpu-a1"), GPU_TAINT));
        PodPlacement wrongPool = new PodPlacement(Map.of("gpu-pool", "a10O"), List.of(), List.of());
        PodPlacement rightPool = new PodPlacement(Map.of("gpu-pool", "a100"), List.of(), List.of());

        WaitDiagnosis none = pod(wrongPool, fleet);
        WaitDiagnosis refused = pod(rightPool, fleet);

        assertEquals("no-matching-node", none.cause());
        assertTrue(has(none, "gpu-pool on them: a100 (1)"), "the near miss shows: " + none.evidence());
        assertTrue(none.evidence().stream().anyMatch(e -> e.command().equals("kubectl get nodes -l 'gpu-pool=a10O'")),
                none.evidence().toString());
        assertEquals("affinity-or-taint", refused.cause());
    }

    @Test
    void quotaToSpareAndAPlaceInLineIsQueuedWhereNoRoomIsQuota() {
        String refusal = "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor"
                + " a100, 6 more needed";
        var workload = workload("job-q", true, List.of(condition("QuotaReserved", "False", "Pending", refusal)), List.of());

        WaitDiagnosis short_ = PendingTree.diagnose(pending(workload, clusterQueue(6), position(2)), full());
        WaitDiagnosis turn = PendingTree.diagnose(pending(workload, clusterQueue(0), position(2)), full());

        assertEquals("quota", short_.cause());
        assertTrue(has(short_, "nvidia.com/gpu in flavor 'a100' of ClusterQueue 'cq-a': 6 reserved of 8 nominal, 2 free;"
                + " it asks 8"), short_.evidence().toString());
        assertEquals("queued", turn.cause());
        assertTrue(has(turn, "position 2 in ClusterQueue 'cq-a': 2 workloads ahead of it"), turn.evidence().toString());
        assertTrue(turn.evidence().stream().noneMatch(e -> e.fact().contains("job-")), "names no other workload");
        assertNotEquals(short_.cause(), turn.cause());
    }

    @Test
    void aRequiredNodeAffinityIsJudgedTermByTerm() {
        PodPlacement h100OrA100 = new PodPlacement(Map.of(), List.of(
                new NodeSelectorTerm(List.of(new LabelRequirement("gpu-pool", "In", List.of("h100"))), List.of()),
                new NodeSelectorTerm(List.of(new LabelRequirement("gpu-pool", "In", List.of("a100")),
                        new LabelRequirement("nvidia.com/gpu.product", "Exists", List.of())), List.of())),
                List.of(GPU_TOLERATION));
        assertEquals("cluster-full", pod(h100OrA100, full()).cause(), "the second term matches the a100 nodes");
        PodPlacement notA100 = new PodPlacement(Map.of(), List.of(new NodeSelectorTerm(List.of(
                new LabelRequirement("gpu-pool", "NotIn", List.of("a100"))), List.of())), List.of(GPU_TOLERATION));
        assertEquals("no-matching-node", pod(notA100, full()).cause());
    }

    @Test
    void aViewCollectedBeforeViewsCarriedPlacementTakesEveryOfferingNodeAndSaysSo() {
        var old = new io.gpumeter.common.fact.PodStatusFact("uid-old", "team-a", "old-0", "3",
                io.gpumeter.common.fact.WatchEventType.MODIFIED, AT, CREATED, null, null, null, "default-scheduler", "Pending",
                null, null, null, null, null, TWO_GPUS, null, List.of());
        WaitDiagnosis d = PendingTree.diagnose(pending(old, failedScheduling("old-0", INSUFFICIENT)),
                fleet(node("gpu-a1", "a100", 8, 8, ready("gpu-a1"), GPU_TAINT)));
        assertEquals("cluster-full", d.cause());
        assertTrue(d.checked().stream().anyMatch(c -> c.contains("collected before views carried them")), d.checked().toString());
        assertEquals("event", d.evidence().get(0).source(), "the FailedScheduling event is what was said");
    }

    private static boolean has(WaitDiagnosis d, String fact) {
        return d.evidence().stream().anyMatch(e -> e.fact().contains(fact));
    }
}
