package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.RootCauseClass;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage.Alternative;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.ledger.governance.domain.ChangeKind;
import io.gpumeter.ledger.violation.domain.Violation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.gpumeter.ledger.triage.domain.Cases.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pod's tree, one fixture per cause its branches tell apart; pairs that are easy to confuse side by side. */
class PodDiagnosisTest {

    static final PodDiagnosis TREE = new PodDiagnosis(new OomBranch(0.10, Duration.ofSeconds(60)));

    /** One fixture: the case, and the symptom, cause, layer and confidence it must triage to. */
    record Fixture(String name, PodCase c, Symptom symptom, String cause, RootCauseClass layer, Confidence confidence) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Fixture f(String name, PodCase c, Symptom symptom, String cause, RootCauseClass layer, Confidence confidence) {
        return new Fixture(name, c, symptom, cause, layer, confidence);
    }

    static PodCase failing(FailureCause cause, String evidence) {
        return pod(List.of(running(waiting("CrashLoopBackOff"), ended("Error", 1, "2026-06-01T11:00:00Z"), 4)),
                List.of(podIncident(cause, "2026-06-01T11:00:00Z", null, evidence)), List.of(mine()), null);
    }

    static PodCase cuda(double mineBefore, double mineThen, double neighbourThen, double cardThen, long neighbourGrant) {
        return pod(List.of(running(up("2026-06-01T10:31:00Z"), null, 1)),
                List.of(podIncident(FailureCause.CUDA_OOM, "2026-06-01T10:30:20Z", "2026-06-01T10:31:00Z",
                        "torch.OutOfMemoryError: CUDA out of memory")),
                List.of(mine()), extras(List.of(neighbour(neighbourGrant)), Map.of("GPU-1",
                        card(mineBefore, mineThen, neighbourThen, cardThen)), null, null, null, null, null));
    }

    static Stream<Fixture> table() {
        return Stream.of(
                // FAILED: the card under the pod
                f("xid-79 on its card is the card lost", healthy(List.of(cardIncident("gpu", "gpu-lost",
                                RootCauseClass.DATA_PLANE, "GPU-1", "2026-06-01T11:30:00Z",
                                "Xid 79 (hardware-driver: GPU has fallen off the bus)")), null),
                        Symptom.FAILED, "gpu-lost", RootCauseClass.DATA_PLANE, Confidence.HIGH),
                f("a card fault under a pod whose cards nothing names is its node's", pod(List.of(running(up(
                                "2026-06-01T09:00:30Z"), null, 0)), List.of(cardIncident("gpu", "gpu-lost", RootCauseClass.DATA_PLANE,
                                "GPU-1", "2026-06-01T11:30:00Z", "Xid 79")), List.of(), null),
                        Symptom.FAILED, "gpu-lost", RootCauseClass.DATA_PLANE, Confidence.MEDIUM),
                f("a hardware Xid from dcgm", healthy(List.of(cardIncident("dcgm", "xid-48", RootCauseClass.DATA_PLANE, "GPU-1",
                        "2026-06-01T11:30:00Z", "Xid 48")), null), Symptom.FAILED, "xid-48", RootCauseClass.DATA_PLANE, Confidence.HIGH),
                f("memory waiting for a reset", healthy(List.of(cardIncident("dcgm-health", "gpu-health", RootCauseClass.DATA_PLANE,
                        "GPU-1", "2026-06-01T11:00:00Z", "ROW_REMAP_PENDING 1")), null), Symptom.FAILED, "gpu-health",
                        RootCauseClass.DATA_PLANE, Confidence.HIGH),
                f("its card no longer registered by the node", healthy(List.of(new io.gpumeter.ledger.governance.domain.Incident(
                        "node/n1/gpu-lost/GPU-1/2026-06-01T11:40:00Z", "node", "n1", "gpu-lost", RootCauseClass.DATA_PLANE, "n1",
                        null, "GPU-1", null, null, null, t("2026-06-01T11:40:00Z"), null, null, 1, "GPU GPU-1 no longer registered")),
                        null), Symptom.FAILED, "gpu-lost", RootCauseClass.DATA_PLANE, Confidence.HIGH),
                // FAILED: the pod itself
                f("an application Xid is the workload's", healthy(List.of(cardIncident("gpu", "xid-31", RootCauseClass.WORKLOAD,
                        "GPU-1", "2026-06-01T11:30:00Z", "Xid 31")), null), Symptom.FAILED, "xid-31", RootCauseClass.WORKLOAD,
                        Confidence.HIGH),
                f("nccl hang", failing(FailureCause.NCCL_HANG, "Watchdog caught collective operation timeout"), Symptom.FAILED,
                        "nccl-hang", RootCauseClass.DATA_PLANE, Confidence.HIGH),
                f("image pull", failing(FailureCause.IMAGE_PULL, "ImagePullBackOff"), Symptom.FAILED, "image-pull",
                        RootCauseClass.WORKLOAD, Confidence.HIGH),
                f("crash loop", failing(FailureCause.CRASH_LOOP, "CrashLoopBackOff"), Symptom.FAILED, "crash-loop",
                        RootCauseClass.WORKLOAD, Confidence.HIGH),
                f("sandbox", failing(FailureCause.POD_SANDBOX, "FailedCreatePodSandBox"), Symptom.FAILED, "pod-sandbox",
                        RootCauseClass.DATA_PLANE, Confidence.HIGH),
                f("container start", failing(FailureCause.CONTAINER_START, "StartError"), Symptom.FAILED, "container-start",
                        RootCauseClass.DATA_PLANE, Confidence.HIGH),
                f("container config", failing(FailureCause.CONTAINER_CONFIG, "CreateContainerConfigError"), Symptom.FAILED,
                        "container-config", RootCauseClass.OPERATIONS_CONFIGURATION, Confidence.HIGH),
                f("topology affinity", failing(FailureCause.TOPOLOGY_AFFINITY, "TopologyAffinityError"), Symptom.FAILED,
                        "topology-affinity", RootCauseClass.DATA_PLANE, Confidence.HIGH),
                f("device admission", failing(FailureCause.DEVICE_ADMISSION, "UnexpectedAdmissionError"), Symptom.FAILED,
                        "device-admission", RootCauseClass.DATA_PLANE, Confidence.HIGH),
                // GPU_INVISIBLE
                f("no device visible", pod(List.of(running(up("2026-06-01T11:05:00Z"), null, 1)),
                        List.of(podIncident(FailureCause.GPU_INVISIBLE, "2026-06-01T11:00:00Z", null,
                                "no CUDA-capable device is detected")), List.of(mine()),
                        stack(node("2026-06-01T11:00:00Z", "550.54.15", "CrashLoopBackOff", 0, null, null), List.of())),
                        Symptom.GPU_INVISIBLE, "gpu-invisible", RootCauseClass.DATA_PLANE, Confidence.HIGH),
                f("driver older than its CUDA", pod(List.of(running(up("2026-06-01T11:05:00Z"), null, 1)),
                        List.of(podIncident(FailureCause.CUDA_DRIVER_MISMATCH, "2026-06-01T11:00:00Z", null,
                                "CUDA driver version is insufficient for CUDA runtime version")), List.of(mine()),
                        stack(node("2026-06-01T11:00:00Z", "535.104.05", "Ready", 4, null, null),
                                List.of(change(ChangeKind.DRIVER_VERSION, null, "550.54.15", "535.104.05", "2026-06-01T10:00:00Z")))),
                        Symptom.GPU_INVISIBLE, "cuda-driver-mismatch", RootCauseClass.OPERATIONS_CONFIGURATION, Confidence.HIGH),
                // OOM
                f("OOMKilled with the node's OOM kill is the node's", pod(List.of(running(up("2026-06-01T10:01:00Z"),
                                ended("OOMKilled", 137, "2026-06-01T10:00:00Z"), 1)),
                        List.of(podIncident(FailureCause.OOM, "2026-06-01T10:00:00Z", "2026-06-01T10:01:00Z", "OOMKilled (exit code 137)")),
                        List.of(mine()), extras(null, null, List.of(nodeOom("2026-06-01T10:00:03Z")), null, null, null, null)),
                        Symptom.OOM, "node-oom", RootCauseClass.DATA_PLANE, Confidence.HIGH),
                f("OOMKilled alone is its own limit", pod(List.of(running(up("2026-06-01T10:01:00Z"),
                                ended("OOMKilled", 137, "2026-06-01T10:00:00Z"), 1)),
                        List.of(podIncident(FailureCause.OOM, "2026-06-01T10:00:00Z", "2026-06-01T10:01:00Z", "OOMKilled (exit code 137)")),
                        List.of(mine()), extras(null, null, List.of(nodeOom("2026-06-01T09:30:00Z")), null, null, null, null)),
                        Symptom.OOM, "oom", RootCauseClass.WORKLOAD, Confidence.MEDIUM),
                // the pair: only the memory figures differ
                f("CUDA OOM at its grant is its own growth", cuda(20000, 40500, 20000, 61500, 60000),
                        Symptom.OOM, "oom", RootCauseClass.WORKLOAD, Confidence.HIGH),
                f("CUDA OOM on a full card under its grant is its neighbour's pressure", cuda(20000, 30000, 51000, 81500, 60000),
                        Symptom.OOM, "neighbour-memory-pressure", RootCauseClass.DATA_PLANE, Confidence.HIGH),
                f("CUDA OOM beside a share above its grant is isolation not enforced", cuda(20000, 30000, 51000, 81500, 40960),
                        Symptom.OOM, "isolation-not-enforced", RootCauseClass.OPERATIONS_CONFIGURATION, Confidence.HIGH),
                f("CUDA OOM without the card's memory stays undecided", pod(List.of(running(up("2026-06-01T10:31:00Z"), null, 1)),
                        List.of(podIncident(FailureCause.CUDA_OOM, "2026-06-01T10:30:20Z", "2026-06-01T10:31:00Z", "CUDA out of memory")),
                        List.of(mine()), null), Symptom.OOM, "cuda-oom", RootCauseClass.WORKLOAD, Confidence.LOW),
                // MIG
                f("its node applying a MIG layout", healthy(List.of(nodeIncident("node", FailureCause.MIG_RECONFIGURATION,
                                "2026-06-01T11:50:00Z", "MIG layout all-disabled -> all-1g.10gb")),
                        stack(node("2026-06-01T12:00:00Z", "550.54.15", "Ready", 4, "all-1g.10gb", "pending"), null)),
                        Symptom.MIG, "mig-reconfiguration", RootCauseClass.OPERATIONS_CONFIGURATION, Confidence.HIGH),
                f("its node's MIG layout failed", healthy(List.of(nodeIncident("node", FailureCause.MIG_RECONFIGURATION,
                                "2026-06-01T11:50:00Z", "MIG layout all-disabled -> all-1g.10gb; failed: nvidia.com/mig.config.state=failed at 2026-06-01T11:55:00Z")),
                        stack(node("2026-06-01T12:00:00Z", "550.54.15", "Ready", 4, "all-1g.10gb", "failed"), null)),
                        Symptom.MIG, "mig-failed", RootCauseClass.OPERATIONS_CONFIGURATION, Confidence.HIGH),
                f("its node's devices disagree with the layout", healthy(List.of(nodeIncident("mig", FailureCause.MIG_INCONSISTENT,
                                "2026-06-01T11:00:00Z", "expected 7 x 1g.10gb per card, allocatable 4")),
                        stack(node("2026-06-01T12:00:00Z", "550.54.15", "Ready", 4, "all-1g.10gb", "success"), null)),
                        Symptom.MIG, "mig-inconsistent", RootCauseClass.OPERATIONS_CONFIGURATION, Confidence.HIGH),
                // OVERUSE
                f("a short episode above its grant", healthy(List.of(), overuse(List.of(violation(Violation.Kind.SOFT,
                                "2026-06-01T11:00:00Z", "2026-06-01T11:02:00Z")), List.of())),
                        Symptom.OVERUSE, "quota-soft", RootCauseClass.CONTROL_PLANE, Confidence.HIGH),
                f("a sustained episode above its grant", healthy(List.of(), overuse(List.of(violation(Violation.Kind.HARD,
                                "2026-06-01T11:00:00Z", "2026-06-01T11:20:00Z")), List.of())),
                        Symptom.OVERUSE, "quota-hard", RootCauseClass.CONTROL_PLANE, Confidence.HIGH),
                f("a card it holds nothing of", healthy(List.of(), overuse(List.of(violation(Violation.Kind.SOFT,
                                "2026-06-01T11:00:00Z", "2026-06-01T11:02:00Z"), violation(Violation.Kind.BYPASS,
                                "2026-06-01T11:30:00Z", "2026-06-01T11:40:00Z")), List.of())),
                        Symptom.OVERUSE, "quota-bypass", RootCauseClass.CONTROL_PLANE, Confidence.HIGH),
                f("a HAMi grant nothing confirms", healthy(List.of(), overuse(List.of(), List.of(unverified()))),
                        Symptom.OVERUSE, "hami-grant-unverified", RootCauseClass.CONTROL_PLANE, Confidence.HIGH),
                // NONE
                f("a healthy pod", healthy(List.of(), overuse(List.of(), List.of())), Symptom.NONE, null, null, Confidence.HIGH),
                f("a failure recovered more than a day before", healthy(List.of(podIncident(FailureCause.CRASH_LOOP,
                                "2026-05-31T08:00:00Z", "2026-05-31T09:00:00Z", "CrashLoopBackOff")), overuse(List.of(), List.of())),
                        Symptom.NONE, null, null, Confidence.HIGH),
                f("a pod with no GPU request", pod(List.of(version("Running", up("2026-06-01T09:00:30Z"), null, 0, Map.of())),
                        List.of(), List.of(), null), Symptom.NONE, null, null, Confidence.HIGH));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void eachCauseTriagesToItself(Fixture f) {
        Diagnosis d = TREE.diagnose(f.c());
        assertEquals(f.symptom(), d.symptom(), "symptom");
        assertEquals(f.cause(), d.cause(), "cause");
        assertEquals(f.layer(), d.layer(), "layer");
        assertEquals(f.confidence(), d.confidence(), "confidence");
        assertTrue(d.symptom() == Symptom.NONE ? !d.checked().isEmpty() : !d.evidence().isEmpty(),
                "a cause has its evidence, NONE says what it checked");
        for (Evidence e : d.evidence()) {
            assertTrue(e.command() == null || io.gpumeter.common.shell.ShellWords.onlyQuoted(e.command())
                    || e.command().contains("sh -c '"), "a command of quoted words: " + e.command());
        }
    }

    @Test
    void theOomPairDiffersOnlyInItsMemoryAndNamesTheNeighbourWithItsMemory() {
        Diagnosis own = TREE.diagnose(cuda(20000, 40500, 20000, 61500, 60000));
        Diagnosis pressed = TREE.diagnose(cuda(20000, 30000, 51000, 81500, 60000));
        assertEquals("oom", own.cause());
        assertTrue(own.evidence().stream().anyMatch(e -> e.fact().equals(
                "ml/trainer used 40500 MiB on GPU-1 of its 40960 MiB grant, 20000 MiB at 2026-06-01T10:21:00Z")), own.evidence().toString());
        assertTrue(own.alternatives().contains(new Alternative("neighbour-memory-pressure",
                "its own use, 40500 MiB, had reached its 40960 MiB at 2026-06-01T10:30:00Z")));
        assertEquals("neighbour-memory-pressure", pressed.cause());
        assertTrue(pressed.evidence().stream().anyMatch(e -> e.fact().equals(
                "beside it on GPU-1 at 2026-06-01T10:30:00Z: other/server 51000 MiB")), pressed.evidence().toString());
        assertTrue(pressed.alternatives().stream().anyMatch(a -> a.cause().equals("oom")
                && a.ruledOutBy().startsWith("its own use, 30000 MiB, stayed under its 40960 MiB")));
        assertEquals(List.of("other"), pressed.named().stream().map(n -> n.namespace()).toList());
        assertEquals(List.of("GPU-1"), pressed.cards());
        assertEquals("NODE", pressed.level());
    }

    @Test
    void aCardFaultLeadsAndThePodsOwnFailureIsItsConsequence() {
        PodCase c = pod(List.of(running(waiting("CrashLoopBackOff"), ended("Error", 1, "2026-06-01T11:31:00Z"), 3)),
                List.of(podIncident(FailureCause.CRASH_LOOP, "2026-06-01T11:31:00Z", null, "CrashLoopBackOff"),
                        cardIncident("gpu", "gpu-lost", RootCauseClass.DATA_PLANE, "GPU-1", "2026-06-01T11:30:00Z", "Xid 79")),
                List.of(mine()), null);
        Diagnosis d = TREE.diagnose(c);
        assertEquals("gpu-lost", d.cause());
        assertEquals(List.of(new Alternative("crash-loop", "began at 2026-06-01T11:31:00Z, after gpu-lost at"
                + " 2026-06-01T11:30:00Z: read as its consequence")), d.alternatives());
        assertTrue(d.evidence().stream().anyMatch(e -> e.command() != null && e.command().equals(
                "kubectl debug 'node/n1' -it --image=busybox -- chroot /host sh -c 'dmesg -T | grep -i xid'")));
        assertEquals("NODE", d.level());
    }

    @Test
    void aCrashLoopRulesTheOomOutByItsLastTermination() {
        Diagnosis d = TREE.diagnose(failing(FailureCause.CRASH_LOOP, "CrashLoopBackOff"));
        assertTrue(d.alternatives().contains(new Alternative("oom", "its last run ended Error (exit code 1), not OOMKilled")),
                d.alternatives().toString());
        assertTrue(d.evidence().stream().anyMatch(e -> "kubectl logs -n 'ml' 'trainer' -c 'main' --previous".equals(e.command())));
    }

    @Test
    void aDriverChangeBeforeTheMismatchIsInItsChain() {
        Diagnosis d = TREE.diagnose(pod(List.of(running(up("2026-06-01T11:05:00Z"), null, 1)),
                List.of(podIncident(FailureCause.CUDA_DRIVER_MISMATCH, "2026-06-01T11:00:00Z", null, "insufficient")),
                List.of(mine()), stack(node("2026-06-01T11:00:00Z", "535.104.05", "Ready", 4, null, null),
                        List.of(change(ChangeKind.DRIVER_VERSION, null, "550.54.15", "535.104.05", "2026-06-01T10:00:00Z")))));
        assertTrue(d.evidence().stream().anyMatch(e -> e.fact().equals(
                "DRIVER_VERSION on node n1: 550.54.15 -> 535.104.05, seen in node labels")), d.evidence().toString());
        assertTrue(d.evidence().stream().anyMatch(e -> e.fact().startsWith("node n1 at 2026-06-01T11:00:00Z: driver 535.104.05")));
    }

    @Test
    void noGpuRequestSaysSo() {
        Diagnosis d = TREE.diagnose(pod(List.of(version("Running", up("2026-06-01T09:00:30Z"), null, 0, Map.of())),
                List.of(), List.of(), null));
        assertTrue(d.checked().get(0).startsWith("ml/trainer requests no GPU"), d.checked().toString());
        assertNull(d.cause());
    }

    @Test
    void anUnscheduledPodWithoutThePendingBranchsAnswerIsPendingAtLowConfidence() {
        PodCase c = pod(List.of(new io.gpumeter.common.fact.PodStatusFact(UID, "ml", "trainer", "1",
                io.gpumeter.common.fact.WatchEventType.ADDED, AT, START, null, null, null, "default-scheduler", "Pending", null,
                null, null, null, null, Map.of("nvidia.com/gpu", 1L), null, List.of())), List.of(), List.of(), null);
        Diagnosis d = TREE.diagnose(c);
        assertEquals(Symptom.PENDING, d.symptom());
        assertEquals(Confidence.LOW, d.confidence());
    }
}
