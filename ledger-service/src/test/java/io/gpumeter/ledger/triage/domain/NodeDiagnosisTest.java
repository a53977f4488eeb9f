package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.RootCauseClass;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.domain.ChangeKind;
import io.gpumeter.ledger.governance.domain.Incident;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static io.gpumeter.ledger.triage.domain.Cases.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The node's tree: a fixture per cause, and the device plugin's drop told apart from a healthy node by the book. */
class NodeDiagnosisTest {

    record Fixture(String name, NodeCase n, Symptom symptom, String cause, Confidence confidence) {
        @Override
        public String toString() {
            return name;
        }
    }

    static NodeCase n(List<Incident> incidents, NodeStack stack, List<BookedChange> changes) {
        return new NodeCase("c", "n1", AT, incidents, stack, changes);
    }

    static final NodeStack READY = node("2026-06-01T12:00:00Z", "550.54.15", "Ready", 4, null, null);

    static Stream<Fixture> table() {
        return Stream.of(
                new Fixture("a card fallen off the bus", n(List.of(cardIncident("gpu", "gpu-lost", RootCauseClass.DATA_PLANE,
                        "GPU-1", "2026-06-01T11:30:00Z", "Xid 79")), READY, List.of()), Symptom.FAILED, "gpu-lost", Confidence.HIGH),
                new Fixture("a hardware Xid", n(List.of(cardIncident("dcgm", "xid-48", RootCauseClass.DATA_PLANE, "GPU-1",
                        "2026-06-01T11:30:00Z", "Xid 48")), READY, List.of()), Symptom.FAILED, "xid-48", Confidence.HIGH),
                new Fixture("memory waiting for a reset", n(List.of(cardIncident("dcgm-health", "gpu-health",
                        RootCauseClass.DATA_PLANE, "GPU-1", "2026-06-01T10:00:00Z", "ROW_REMAP_PENDING")), READY, List.of()),
                        Symptom.FAILED, "gpu-health", Confidence.HIGH),
                new Fixture("a failed MIG layout", n(List.of(nodeIncident("node", FailureCause.MIG_RECONFIGURATION,
                        "2026-06-01T11:00:00Z", "MIG layout a -> b; failed: nvidia.com/mig.config.state=failed at 2026-06-01T11:05:00Z")),
                        node("2026-06-01T12:00:00Z", "550.54.15", "Ready", 4, "b", "failed"), List.of()),
                        Symptom.MIG, "mig-failed", Confidence.HIGH),
                new Fixture("a device plugin crash-looping now", n(List.of(),
                        node("2026-06-01T12:00:00Z", "550.54.15", "CrashLoopBackOff", 0, null, null),
                        List.of(change(ChangeKind.COMPONENT_HEALTH, "device-plugin", "Ready", "CrashLoopBackOff", "2026-06-01T11:40:00Z"),
                                change(ChangeKind.GPU_ALLOCATABLE, "nvidia.com/gpu", "4", "0", "2026-06-01T11:41:00Z"))),
                        Symptom.FAILED, "no-device", Confidence.HIGH),
                new Fixture("a device plugin that crash-looped and is back", n(List.of(), READY,
                        List.of(change(ChangeKind.GPU_ALLOCATABLE, "nvidia.com/gpu", "0", "4", "2026-06-01T11:20:00Z"),
                                change(ChangeKind.COMPONENT_HEALTH, "device-plugin", "Ready", "CrashLoopBackOff", "2026-06-01T11:00:00Z"),
                                change(ChangeKind.GPU_ALLOCATABLE, "nvidia.com/gpu", "4", "0", "2026-06-01T11:01:00Z"))),
                        Symptom.FAILED, "no-device", Confidence.MEDIUM),
                new Fixture("the kernel's OOM killer", n(List.of(new Incident("node-oom/n1/e1", "node-oom", "n1", "oom",
                        RootCauseClass.WORKLOAD, "n1", null, null, null, null, null, t("2026-06-01T11:00:00Z"), null,
                        t("2026-06-01T11:00:00Z"), 1, "OOMKilling on node n1")), READY, List.of()),
                        Symptom.OOM, "node-oom", Confidence.HIGH),
                new Fixture("a healthy node", n(List.of(), READY, List.of(change(ChangeKind.DRIVER_VERSION, null, "550.54.15",
                        "560.35.03", "2026-06-01T08:00:00Z"))), Symptom.NONE, null, Confidence.HIGH));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void eachCauseTriagesToItself(Fixture f) {
        Diagnosis d = NodeDiagnosis.diagnose(f.n());
        assertEquals(f.symptom(), d.symptom());
        assertEquals(f.cause(), d.cause());
        assertEquals(f.confidence(), d.confidence());
        assertTrue(d.symptom() == Symptom.NONE ? !d.checked().isEmpty() : !d.evidence().isEmpty());
    }

    @Test
    void theDevicePluginsDropIsToldByItsChangesAndItsPodsCommand() {
        Diagnosis d = NodeDiagnosis.diagnose(table().filter(f -> f.name().equals("a device plugin crash-looping now"))
                .findFirst().orElseThrow().n());
        assertEquals(t("2026-06-01T11:40:00Z"), d.since());
        assertTrue(d.evidence().stream().anyMatch(e -> "kubectl get pods -n 'gpu-operator' -o wide --field-selector 'spec.nodeName=n1'"
                .equals(e.command())), d.evidence().toString());
        assertTrue(d.evidence().stream().anyMatch(e -> e.fact().startsWith("GPU_ALLOCATABLE nvidia.com/gpu on node n1: 4 -> 0")));
    }

    @Test
    void anApplicationXidIsTheWorkloadsNotTheNodes() {
        Diagnosis d = NodeDiagnosis.diagnose(n(List.of(cardIncident("gpu", "xid-13", RootCauseClass.WORKLOAD, "GPU-1",
                "2026-06-01T11:30:00Z", "Xid 13")), READY, List.of()));
        assertEquals(Symptom.NONE, d.symptom());
        assertTrue(d.checked().get(0).startsWith("xid-13 on GPU-1"), d.checked().toString());
    }
}
