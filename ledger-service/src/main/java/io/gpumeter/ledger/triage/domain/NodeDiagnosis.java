package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage.Alternative;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.domain.ChangeKind;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.triage.domain.Leads.Branch;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The tree for one node: a fault of its cards (a hardware or driver Xid, a card lost, memory waiting for a reset)
 * leads, then its MIG layout (failed, inconsistent, being applied), then a device plugin that does not report its
 * GPUs (its pod not ready, or allocatable {@code nvidia.com/gpu} 0 while the capacity has cards, now or in the change
 * book of the last day: {@code no-device}), then the kernel OOM killer; else NONE with what was looked at. An
 * application Xid is its workload's fault, not the node's, and is only listed as checked.
 */
public final class NodeDiagnosis {

    private static final Set<String> DOWN = Set.of("CrashLoopBackOff", "NotReady", "Absent", "Restarting");

    private NodeDiagnosis() {
    }

    public static Diagnosis diagnose(NodeCase n) {
        List<Incident> concerning = new ArrayList<>();
        List<String> checked = new ArrayList<>();
        for (Incident i : n.incidents()) {
            if (!n.node().equals(i.node()) || i.startedAt().isAfter(n.at())) {
                continue;
            }
            Instant end = Leads.end(i);
            boolean recent = end == null || !end.isBefore(n.at().minus(Leads.RECENT));
            if (!recent || "pod".equals(i.scope())) {
                continue;
            }
            if (Leads.branchOf(i) == Branch.POD) {
                checked.add(i.cause() + " on " + (i.gpuUuid() == null ? i.gpuPci() : i.gpuUuid()) + " at " + i.startedAt()
                        + ": an application Xid, its workload's fault, not the node's");
                continue;
            }
            concerning.add(i);
        }
        concerning.sort(Comparator.comparing((Incident i) -> !Leads.openAt(i, n.at()))
                .thenComparing(i -> rank(i)).thenComparing(Incident::startedAt, Comparator.reverseOrder()));
        List<Alternative> ruledOut = new ArrayList<>();
        if (!concerning.isEmpty() && rank(concerning.get(0)) < 3) {
            Incident lead = concerning.get(0);
            for (Incident other : concerning.subList(1, concerning.size())) {
                ruledOut.add(new Alternative(other.cause(), Leads.openAt(lead, n.at()) && !Leads.openAt(other, n.at())
                        ? "over at " + Leads.end(other) + "; " + lead.cause() + " is still open"
                        : lead.cause() + " is read first"));
            }
            if (Leads.branchOf(lead) == Branch.MIG) {
                return MigBranch.diagnose(lead, n.at(), n.stack(), ruledOut, List.of());
            }
            List<Evidence> evidence = new ArrayList<>(List.of(IncidentEvidence.of(lead, n.at())));
            if (n.stack() != null) {
                evidence.add(StackFacts.offered(n.stack()));
            }
            return new Diagnosis(Symptom.FAILED, lead.cause(), lead.rootCause(), Confidence.HIGH, lead.startedAt(),
                    List.of(n.node()), lead.gpuUuid() == null ? List.of() : List.of(lead.gpuUuid()), "NODE", lead, evidence,
                    ruledOut, checked, List.of());
        }
        Diagnosis plugin = devicePlugin(n, ruledOut, checked);
        if (plugin != null) {
            return plugin;
        }
        if (!concerning.isEmpty()) {
            Incident oom = concerning.get(0);
            return new Diagnosis(Symptom.OOM, FailureCause.NODE_OOM.label(), FailureCause.NODE_OOM.rootCause(),
                    Confidence.HIGH, oom.startedAt(), List.of(n.node()), List.of(), "NODE", oom,
                    List.of(IncidentEvidence.of(oom, n.at())), ruledOut, checked, List.of());
        }
        checked.add("Xids, lost cards, memory health, MIG layouts and kernel OOM kills of node " + n.node()
                + " in the day before " + n.at() + ": none");
        checked.add(n.stack() == null ? "node " + n.node() + "'s GPU stack at " + n.at() + " is not stored"
                : "its device plugins ready and its GPUs allocatable at " + n.at() + "; no drop in the change book the day before");
        return Diagnosis.none(List.of(n.node()), checked, n.stack() == null ? List.of() : List.of(StackFacts.offered(n.stack())));
    }

    /** No device: a device plugin down, or allocatable GPUs 0, now or within the last day of the change book. */
    private static Diagnosis devicePlugin(NodeCase n, List<Alternative> ruledOut, List<String> checked) {
        NodeStack s = n.stack();
        List<Evidence> evidence = new ArrayList<>();
        boolean now = s != null && s.present() && (!s.unreadyPlugins().isEmpty() || s.offersNoGpu());
        if (now) {
            evidence.add(StackFacts.offered(s));
            evidence.addAll(StackFacts.unreadyPlugins(s));
        }
        Instant since = now ? s.at() : null;
        List<Evidence> changes = new ArrayList<>();
        for (BookedChange c : n.changes()) {
            if (!n.node().equals(c.node()) || c.at().isAfter(n.at()) || c.at().isBefore(n.at().minus(Leads.RECENT))) {
                continue;
            }
            boolean plugin = c.kind() == ChangeKind.COMPONENT_HEALTH && c.subject() != null
                    && c.subject().endsWith("device-plugin");
            boolean down = plugin && DOWN.contains(c.after()) || c.kind() == ChangeKind.GPU_ALLOCATABLE && "0".equals(c.after());
            boolean back = plugin && "Ready".equals(c.after()) || c.kind() == ChangeKind.GPU_ALLOCATABLE && "0".equals(c.before());
            if (down && (since == null || c.at().isBefore(since))) {
                since = c.at();
            }
            if (down || back) {
                changes.add(StackFacts.change(c));
            }
        }
        evidence.addAll(changes);
        if (since == null) {
            return null;
        }
        evidence.sort(Comparator.comparing(Evidence::at));
        if (!now) {
            checked.add("the device plugin reports again at " + n.at() + "; the drop was in the change book of the day before");
        }
        PendingReason cause = PendingReason.NO_DEVICE;
        return new Diagnosis(Symptom.FAILED, cause.label(), cause.rootCause(), now ? Confidence.HIGH : Confidence.MEDIUM,
                since, List.of(n.node()), List.of(), "NODE", null, evidence, ruledOut, checked, List.of());
    }

    /** Card faults first, then the MIG layout; a kernel OOM last. */
    private static int rank(Incident i) {
        if ("node-oom".equals(i.scope())) {
            return 3;
        }
        return Leads.branchOf(i) == Branch.CARD ? 1 : Leads.branchOf(i) == Branch.MIG ? 2 : 3;
    }
}
