package io.gpumeter.slo.triage;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.slo.domain.SuspectRanking;
import io.gpumeter.slo.service.JitterEvidence;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Why a service was slow, decided by two facts: whether a neighbour on its cards changed just before (it arrived, or
 * its own activity rose), and whether the service's own request rate rose against the span before. A neighbour that
 * changed while the load did not is {@link FailureCause#NEIGHBOUR_INTERFERENCE}; a load that rose while no neighbour
 * changed is {@link FailureCause#OWN_LOAD}; neither is {@link FailureCause#UNEXPLAINED} (the host's CPU, I/O, network
 * and power or thermal limits are not read yet). When both changed the neighbour is named, with less confidence: a
 * card shared with a newly busy neighbour is the more specific fact.
 */
public final class PerformanceCause {

    /**
     * When a rise counts.
     *
     * @param loadRise        the spell's request rate at least this many times the baseline's
     * @param minActivityRise a neighbour's own DRAM_ACTIVE or SM_ACTIVE at least this much above its earlier mean
     */
    public record Thresholds(double loadRise, double minActivityRise) {
    }

    /**
     * A neighbour as the decision reads it: its ranked suspect entry and which of its activity curves were measured on
     * its own containers or MIG instance. A rise of a whole card's curve is not the neighbour's: the service's own
     * work is part of it.
     */
    public record Signal(SuspectRanking.Suspect suspect, Set<String> ownFields) {

        public Signal {
            ownFields = ownFields == null ? Set.of() : Set.copyOf(ownFields);
        }

        /** The largest rise of the neighbour's own curves, or empty when none of them is its own. */
        public Optional<SuspectRanking.Rise> ownRise() {
            return suspect.rises() == null ? Optional.empty() : suspect.rises().stream()
                    .filter(r -> ownFields.contains(r.field()))
                    .max(Comparator.comparingDouble(SuspectRanking.Rise::rise));
        }
    }

    /**
     * The neighbour that changed: by its own activity's {@code rise}, or (rise null) by arriving inside the suspects'
     * horizon while none of its activity could be told from the card's.
     */
    public record NeighbourChange(Signal neighbour, SuspectRanking.Rise rise) {
    }

    /**
     * The cause and what decided it.
     *
     * @param change         the neighbour that changed, or null
     * @param loadRose       whether the request rate rose by the threshold
     * @param neighboursRead whether the service's cards and their other pods were read whole
     */
    public record Verdict(FailureCause cause, Confidence confidence, NeighbourChange change, RequestRate rate,
                          boolean loadRose, boolean neighboursRead) {

        /** Whether the request rate could be compared at all (the baseline had requests). */
        public boolean loadKnown() {
            return rate != null && rate.ratio() != null;
        }
    }

    private PerformanceCause() {
    }

    /**
     * @param neighbours     the neighbours in their suspects' rank order
     * @param neighboursRead false when the service's cards or their occupants could not be read, so that no
     *                       neighbour is no fact
     */
    public static Verdict decide(List<Signal> neighbours, boolean neighboursRead, RequestRate rate, Thresholds t) {
        NeighbourChange change = neighbours.stream().map(n -> changed(n, t)).flatMap(Optional::stream).findFirst()
                .orElse(null);
        boolean loadRose = rate != null && rate.rose(t.loadRise());
        boolean loadKnown = rate != null && rate.ratio() != null;
        if (change != null) {
            // its own activity's rise is a fact; an arrival alone, or a load that rose too, leaves room for doubt
            Confidence c = change.rise() != null && loadKnown && !loadRose ? Confidence.HIGH : Confidence.MEDIUM;
            return new Verdict(FailureCause.NEIGHBOUR_INTERFERENCE, c, change, rate, loadRose, neighboursRead);
        }
        if (loadRose) {
            return new Verdict(FailureCause.OWN_LOAD, neighboursRead ? Confidence.HIGH : Confidence.MEDIUM, null, rate,
                    true, neighboursRead);
        }
        return new Verdict(FailureCause.UNEXPLAINED, Confidence.LOW, null, rate, false, neighboursRead);
    }

    /** Which of each neighbour's curves were measured on its own containers or MIG instance. */
    public static Map<String, Set<String>> ownCurves(JitterEvidence x) {
        Map<String, Set<String>> out = new HashMap<>();
        for (JitterEvidence.Neighbour n : x.neighbours() == null ? List.<JitterEvidence.Neighbour>of() : x.neighbours()) {
            if (n.curves() != null) {
                n.curves().forEach((field, c) -> {
                    if ("CONTAINER".equals(c.scope()) || "MIG_INSTANCE".equals(c.scope())) {
                        out.computeIfAbsent(n.namespace() + "/" + n.pod(), k -> new TreeSet<>()).add(field);
                    }
                });
            }
        }
        return out;
    }

    /** Whether this neighbour changed: its own activity decides where it was measured, else its arrival does. */
    static Optional<NeighbourChange> changed(Signal n, Thresholds t) {
        Optional<SuspectRanking.Rise> own = n.ownRise();
        if (own.isPresent()) {
            return own.get().rise() >= t.minActivityRise() ? Optional.of(new NeighbourChange(n, own.get()))
                    : Optional.empty();
        }
        return n.suspect().arrival() > 0 ? Optional.of(new NeighbourChange(n, null)) : Optional.empty();
    }
}
