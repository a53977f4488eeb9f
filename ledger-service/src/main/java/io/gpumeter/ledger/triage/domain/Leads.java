package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.XidClass;
import io.gpumeter.ledger.governance.domain.Incident;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The incidents that concern a pod at an instant, best lead first. An incident concerns the pod when it is the
 * pod's own, or its card's while the pod held that card (its node's, for a pod no allocation names a card of), or its
 * node's (a MIG layout) while the pod ran there; and
 * when it was open at the instant or ended within {@link #RECENT} before it. Open ones lead; among those, a fault
 * under the pod (its card, its node's MIG layout, a driver it cannot see) comes before what its own containers did,
 * because the one explains the other; then the newest.
 */
public final class Leads {

    /** How long after its end an incident still answers "what happened to this pod". */
    public static final Duration RECENT = Duration.ofHours(24);

    private static final Set<String> CARD_SCOPES = Set.of("gpu", "dcgm", "dcgm-health");

    /** The branch of the tree an incident leads to, in the order leads are followed. */
    public enum Branch {
        CARD(Symptom.FAILED), MIG(Symptom.MIG), INVISIBLE(Symptom.GPU_INVISIBLE), OOM(Symptom.OOM), POD(Symptom.FAILED);

        private final Symptom symptom;

        Branch(Symptom symptom) {
            this.symptom = symptom;
        }

        public Symptom symptom() {
            return symptom;
        }
    }

    /** An incident that concerns the pod, the branch it leads to, and whether it was open at the instant. */
    public record Lead(Incident incident, Branch branch, boolean open) {
    }

    private Leads() {
    }

    public static Branch branchOf(Incident i) {
        String cause = i.cause();
        if (FailureCause.GPU_LOST.label().equals(cause) || FailureCause.GPU_HEALTH.label().equals(cause)) {
            return Branch.CARD;
        }
        if (XidClass.code(cause).isPresent()) {
            return XidClass.of(XidClass.code(cause).get()) == XidClass.APPLICATION ? Branch.POD : Branch.CARD;
        }
        if (FailureCause.MIG_RECONFIGURATION.label().equals(cause) || FailureCause.MIG_INCONSISTENT.label().equals(cause)
                || FailureCause.MIG_FAILED.label().equals(cause)) {
            return Branch.MIG;
        }
        if (FailureCause.GPU_INVISIBLE.label().equals(cause) || FailureCause.CUDA_DRIVER_MISMATCH.label().equals(cause)) {
            return Branch.INVISIBLE;
        }
        if (FailureCause.OOM.label().equals(cause) || FailureCause.CUDA_OOM.label().equals(cause)) {
            return Branch.OOM;
        }
        return Branch.POD;
    }

    /** When an incident stopped: its recovery, else its end; null while open. */
    public static Instant end(Incident i) {
        return i.recoveredAt() != null ? i.recoveredAt() : i.endedAt();
    }

    public static boolean openAt(Incident i, Instant at) {
        Instant end = end(i);
        return !i.startedAt().isAfter(at) && (end == null || end.isAfter(at));
    }

    /** The leads of a pod at its case's instant, best first. */
    public static List<Lead> of(PodCase c) {
        List<Lead> out = new ArrayList<>();
        for (Incident i : c.incidents()) {
            if (i.startedAt().isAfter(c.at()) || "node-oom".equals(i.scope())) {
                continue;
            }
            Instant end = end(i);
            boolean open = end == null || end.isAfter(c.at());
            if (!open && end.isBefore(c.at().minus(RECENT))) {
                continue;
            }
            if (concerns(c, i, open ? c.at() : end)) {
                out.add(new Lead(i, branchOf(i), open));
            }
        }
        out.sort(Comparator.comparing((Lead l) -> !l.open()).thenComparing(l -> l.branch().ordinal())
                .thenComparing((Lead l) -> l.incident().startedAt(), Comparator.reverseOrder())
                .thenComparing(l -> l.incident().key()));
        return out;
    }

    private static boolean concerns(PodCase c, Incident i, Instant until) {
        if ("pod".equals(i.scope())) {
            return c.uid().equals(i.subject());
        }
        boolean cardScoped = CARD_SCOPES.contains(i.scope())
                || "node".equals(i.scope()) && FailureCause.GPU_LOST.label().equals(i.cause());
        if (cardScoped && i.gpuUuid() != null && c.holdings().stream().anyMatch(h -> h.gpuUuid() != null)) {
            return c.holdings().stream().anyMatch(h -> i.gpuUuid().equals(h.gpuUuid()) && h.overlaps(i.startedAt(), until));
        }
        // a node's MIG layout, a card the kernel named by its address alone, or a pod whose cards nothing names (a
        // replay of its governance facts alone): the pod ran on the node then
        return i.node() != null && ranOn(c, i.node(), i.startedAt(), until);
    }

    private static boolean ranOn(PodCase c, String node, Instant from, Instant to) {
        if (c.holdings().stream().anyMatch(h -> node.equals(h.node()) && h.overlaps(from, to))) {
            return true;
        }
        return c.holdings().isEmpty() && c.versions().stream().anyMatch(v -> node.equals(v.nodeName())
                && !v.observedAt().isAfter(to) && (v.deletedAt() == null || v.deletedAt().isAfter(from)));
    }
}
