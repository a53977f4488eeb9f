package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage.Alternative;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.common.triage.Triage.Named;
import io.gpumeter.common.triage.Triage.SubjectKind;
import io.gpumeter.ledger.governance.domain.Incident;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whose memory filled one card at the minute before a CUDA out-of-memory: a HAMi share above its grant means the
 * grants were not enforced ({@code ISOLATION_NOT_ENFORCED}); its own use at its grant is its own growth ({@code OOM});
 * the card full while its own use stayed under its grant is its neighbours' pressure ({@code NEIGHBOUR_MEMORY_PRESSURE},
 * naming them and their memory then); else the card does not decide it.
 */
final class CardAtOom {

    /** A card this full is full: what is left is below what a CUDA allocation asks at once. */
    static final double FULL = 0.95;
    /** Its own use this close to its grant is at its grant. */
    static final double AT_GRANT = 0.95;

    private CardAtOom() {
    }

    /**
     * @param then      the card's fullest minute just before the OOM
     * @param mine      what the pod held of the card then; null when no allocation names it
     * @param tolerance how far above its grant a share's use is still within it (the violations' tolerance)
     */
    static Optional<Diagnosis> decide(PodCase c, Incident i, String node, String card, CardMemory memory, Instant then,
                                      Holding mine, double tolerance, List<Evidence> evidence,
                                      List<Alternative> alternatives, List<String> checked) {
        String me = c.key();
        Double used = memory.used(then);
        Double capacity = memory.capacity(then);
        Map<String, Double> pods = memory.pods(then);
        Double own = pods.get(me);
        Double grant = grant(memory, me, then, mine, capacity);
        List<Holding> neighbours = c.extras().cardHoldings().stream()
                .filter(h -> card.equals(h.gpuUuid()) && !me.equals(h.podKey()) && h.covers(i.startedAt())).toList();
        List<String> cards = List.of(card);
        List<String> nodes = node == null ? List.of() : List.of(node);
        if (used != null) {
            evidence.add(new Evidence(then, "usage", card + " FB_USED " + mib(used) + (capacity == null ? ""
                    : " of " + mib(capacity) + " (" + percent(used / capacity) + ")") + " at " + then,
                    Commands.cardMemory(node, card)));
        }
        if (own != null) {
            Instant from = then.minus(CardOom.BEFORE);
            List<Instant> mineRead = memory.podTimes(me, from, then);
            Double before = mineRead.isEmpty() ? null : memory.pods(mineRead.get(0)).get(me);
            evidence.add(new Evidence(then, "usage", me + " used " + mib(own) + " on " + card
                    + (grant == null ? "" : " of its " + mib(grant) + (mine != null && mine.memoryMib() != null ? " grant" : ""))
                    + (before != null && mineRead.get(0).isBefore(then) ? ", " + mib(before) + " at " + mineRead.get(0) : ""),
                    Commands.processMemory(node, card)));
        }
        // isolation: a HAMi share above its grant
        List<Named> named = new ArrayList<>();
        List<String> over = new ArrayList<>();
        for (Map.Entry<String, Double> p : pods.entrySet()) {
            Holding h = p.getKey().equals(me) ? mine : neighbours.stream().filter(n -> n.podKey().equals(p.getKey()))
                    .findFirst().orElse(null);
            Double limit = memory.limit(p.getKey(), then);
            Double g = limit != null ? limit : h != null && h.memoryMib() != null ? h.memoryMib().doubleValue() : null;
            if (g != null && p.getValue() > g * (1 + tolerance)) {
                over.add(p.getKey());
                evidence.add(new Evidence(then, "usage", (p.getKey().equals(me) ? "its own share" : "the share of " + p.getKey())
                        + " used " + mib(p.getValue()) + " on " + card + ", above its HAMi grant of " + mib(g),
                        Commands.podAnnotation(namespace(p.getKey()), pod(p.getKey()), "hami.io/vgpu-devices-allocated")));
                if (!p.getKey().equals(me)) {
                    named.add(new Named(SubjectKind.POD, namespace(p.getKey()), pod(p.getKey()), null));
                }
            }
        }
        if (!over.isEmpty()) {
            alternatives.add(new Alternative(FailureCause.NEIGHBOUR_MEMORY_PRESSURE.label(), "the memory was taken by a share"
                    + " beyond its grant (" + String.join(", ", over) + "): HAMi did not hold it to its grant"));
            alternatives.add(new Alternative(FailureCause.OOM.label(), "a share above its grant is not growth within a grant"));
            return Optional.of(new Diagnosis(Symptom.OOM, FailureCause.ISOLATION_NOT_ENFORCED.label(),
                    FailureCause.ISOLATION_NOT_ENFORCED.rootCause(), Confidence.HIGH, i.startedAt(), nodes, cards, "NODE", i,
                    evidence, alternatives, checked, named));
        }
        if (own != null && grant != null && own >= AT_GRANT * grant) {
            alternatives.add(new Alternative(FailureCause.NEIGHBOUR_MEMORY_PRESSURE.label(), "its own use, " + mib(own)
                    + ", had reached its " + mib(grant) + " at " + then));
            alternatives.add(new Alternative(FailureCause.ISOLATION_NOT_ENFORCED.label(),
                    "no share on " + card + " used more than its grant at " + then));
            return Optional.of(new Diagnosis(Symptom.OOM, FailureCause.OOM.label(), FailureCause.OOM.rootCause(),
                    Confidence.HIGH, i.startedAt(), nodes, cards, "POD", i, evidence, alternatives, checked, List.of()));
        }
        boolean full = used != null && capacity != null && used >= FULL * capacity;
        if (!full) {
            checked.add(used == null || capacity == null
                    ? card + "'s FB_USED " + (used == null ? "" : "or its size ") + "is not stored at " + then
                    : card + " was not full at " + then + " (" + percent(used / capacity) + ") and its own use stayed under its grant");
            return Optional.empty();
        }
        List<String> others = new ArrayList<>();
        for (Map.Entry<String, Double> p : pods.entrySet()) {
            if (!p.getKey().equals(me)) {
                others.add(p.getKey() + " " + mib(p.getValue()));
                named.add(new Named(SubjectKind.POD, namespace(p.getKey()), pod(p.getKey()), null));
            }
        }
        for (Holding h : neighbours) {
            if (!pods.containsKey(h.podKey())) {
                others.add(h.podKey() + " (" + h.words() + ", its memory not measured)");
                named.add(new Named(SubjectKind.POD, h.namespace(), h.pod(), h.tenant()));
            }
        }
        if (own == null) {
            if (others.isEmpty()) {
                alternatives.add(new Alternative(FailureCause.NEIGHBOUR_MEMORY_PRESSURE.label(),
                        "nothing else held or used " + card + " at " + then + ": the card's memory was its own"));
                return Optional.of(new Diagnosis(Symptom.OOM, FailureCause.OOM.label(), FailureCause.OOM.rootCause(),
                        Confidence.MEDIUM, i.startedAt(), nodes, cards, "POD", i, evidence, alternatives, checked, List.of()));
            }
            checked.add("its own memory on " + card + " is not measured (no HAMi container series, no nvidia-smi process"
                    + " series named for it): its own growth is not ruled out");
            return Optional.empty();
        }
        evidence.add(new Evidence(then, "usage", "beside it on " + card + " at " + then + ": " + String.join(", ", others),
                Commands.processMemory(node, card)));
        alternatives.add(new Alternative(FailureCause.OOM.label(), "its own use, " + mib(own) + ", stayed under its "
                + (grant == null ? "share" : mib(grant)) + " while the card was " + percent(used / capacity) + " full"));
        alternatives.add(new Alternative(FailureCause.ISOLATION_NOT_ENFORCED.label(),
                "no share on " + card + " used more than its grant at " + then));
        return Optional.of(new Diagnosis(Symptom.OOM, FailureCause.NEIGHBOUR_MEMORY_PRESSURE.label(),
                FailureCause.NEIGHBOUR_MEMORY_PRESSURE.rootCause(), Confidence.HIGH, i.startedAt(), nodes, cards, "NODE", i,
                evidence, alternatives, checked, named));
    }

    /** Its memory grant on the card: HAMi's limit series, else its booked grant, else the whole card's memory. */
    private static Double grant(CardMemory memory, String me, Instant then, Holding mine, Double capacity) {
        Double limit = memory.limit(me, then);
        if (limit != null) {
            return limit;
        }
        if (mine != null && mine.memoryMib() != null) {
            return mine.memoryMib().doubleValue();
        }
        return capacity;
    }

    static String mib(double value) {
        return Math.round(value) + " MiB";
    }

    static String percent(double share) {
        return Math.round(share * 100) + " %";
    }

    private static String namespace(String podKey) {
        return podKey.substring(0, podKey.indexOf('/'));
    }

    private static String pod(String podKey) {
        return podKey.substring(podKey.indexOf('/') + 1);
    }
}
