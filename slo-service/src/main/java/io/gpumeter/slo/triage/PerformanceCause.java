package io.gpumeter.slo.triage;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.slo.domain.SuspectKind;
import io.gpumeter.slo.domain.SuspectRanking;
import io.gpumeter.slo.service.JitterEvidence;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Why a service was slow, decided by three facts: whether one of the host's or the card's pressures on it rose just
 * before (its pods' CFS throttling, its nodes' CPU or I/O pressure, its network share, its cards' power or thermal
 * slowdowns), whether a neighbour on its cards changed just before (it arrived, or its own activity rose), and whether
 * the service's own request rate rose against the span before. The host and the card are ruled out first, as CPU, I/O
 * and network causes must be before neighbours are blamed: a pressure that rose is its cause
 * ({@link FailureCause#CPU_SATURATED}, {@link FailureCause#IO_WAIT}, {@link FailureCause#NETWORK},
 * {@link FailureCause#POWER_OR_THERMAL}; the highest-ranked when several did); else a neighbour that changed while the
 * load did not is {@link FailureCause#NEIGHBOUR_INTERFERENCE}; a load that rose while nothing else changed is
 * {@link FailureCause#OWN_LOAD}; nothing is {@link FailureCause#UNEXPLAINED}. Whatever else changed too lowers the
 * confidence and is named: a card shared with a newly busy neighbour is more specific than a load that rose, and a
 * pressure measured on the service's own pod, node or card more specific than both.
 */
public final class PerformanceCause {

    /**
     * When a rise counts.
     *
     * @param loadRise        the spell's request rate at least this many times the baseline's
     * @param minActivityRise a suspect's own curve (a neighbour's DRAM_ACTIVE or SM_ACTIVE, a pressure's ratio) at
     *                        least this much above its earlier mean
     */
    public record Thresholds(double loadRise, double minActivityRise) {
    }

    /**
     * A suspect as the decision reads it: its ranked entry and, for a neighbour, which of its activity curves were
     * measured on its own containers or MIG instance. A rise of a whole card's curve is not the neighbour's: the
     * service's own work is part of it. A pressure's curves are all its own.
     */
    public record Signal(SuspectRanking.Suspect suspect, Set<String> ownFields) {

        public Signal {
            ownFields = ownFields == null ? Set.of() : Set.copyOf(ownFields);
        }

        /** Whether this suspect is a neighbour, not one of the host's or the card's pressures. */
        public boolean neighbour() {
            return suspect.suspectKind() == SuspectKind.NEIGHBOUR;
        }

        /** The largest rise of its own curves, or empty when none of them is its own. */
        public Optional<SuspectRanking.Rise> ownRise() {
            return suspect.rises() == null ? Optional.empty() : suspect.rises().stream()
                    .filter(r -> !neighbour() || ownFields.contains(r.field()))
                    .max(Comparator.comparingDouble(SuspectRanking.Rise::rise));
        }
    }

    /**
     * A suspect that changed: by its own curve's {@code rise}, or (rise null, a neighbour only) by arriving inside the
     * suspects' horizon while none of its activity could be told from the card's.
     */
    public record Changed(Signal signal, SuspectRanking.Rise rise) {

        public FailureCause cause() {
            return signal.suspect().suspectKind().cause();
        }
    }

    /**
     * The cause and what decided it.
     *
     * @param change         the suspect that changed and decided it, or null
     * @param loadRose       whether the request rate rose by the threshold
     * @param neighboursRead whether the service's cards and their other pods were read whole
     * @param alsoChanged    the other suspects that changed, in rank order, whose causes are not ruled out
     */
    public record Verdict(FailureCause cause, Confidence confidence, Changed change, RequestRate rate,
                          boolean loadRose, boolean neighboursRead, List<Changed> alsoChanged) {

        /** Whether the request rate could be compared at all (the baseline had requests). */
        public boolean loadKnown() {
            return rate != null && rate.ratio() != null;
        }

        /** Whether a suspect of this cause changed, deciding or not. */
        public boolean changed(FailureCause c) {
            return change != null && change.cause() == c || alsoChanged.stream().anyMatch(x -> x.cause() == c);
        }
    }

    private PerformanceCause() {
    }

    /**
     * @param signals        the suspects — neighbours and pressures — in their rank order
     * @param neighboursRead false when the service's cards or their occupants could not be read, so that no
     *                       neighbour is no fact
     */
    public static Verdict decide(List<Signal> signals, boolean neighboursRead, RequestRate rate, Thresholds t) {
        List<Changed> pressures = signals.stream().filter(s -> !s.neighbour()).map(s -> changed(s, t))
                .flatMap(Optional::stream).toList();
        Changed neighbour = signals.stream().filter(Signal::neighbour).map(s -> changed(s, t))
                .flatMap(Optional::stream).findFirst().orElse(null);
        boolean loadRose = rate != null && rate.rose(t.loadRise());
        boolean loadKnown = rate != null && rate.ratio() != null;
        if (!pressures.isEmpty()) {
            Changed first = pressures.get(0);
            List<Changed> also = new ArrayList<>(pressures.subList(1, pressures.size()));
            also.removeIf(c -> c.cause() == first.cause());
            if (neighbour != null) {
                also.add(neighbour);
            }
            Confidence c = also.isEmpty() && loadKnown && !loadRose && neighboursRead ? Confidence.HIGH
                    : Confidence.MEDIUM;
            return new Verdict(first.cause(), c, first, rate, loadRose, neighboursRead, List.copyOf(also));
        }
        if (neighbour != null) {
            // its own activity's rise is a fact; an arrival alone, or a load that rose too, leaves room for doubt
            Confidence c = neighbour.rise() != null && loadKnown && !loadRose ? Confidence.HIGH : Confidence.MEDIUM;
            return new Verdict(FailureCause.NEIGHBOUR_INTERFERENCE, c, neighbour, rate, loadRose, neighboursRead,
                    List.of());
        }
        if (loadRose) {
            return new Verdict(FailureCause.OWN_LOAD, neighboursRead ? Confidence.HIGH : Confidence.MEDIUM, null, rate,
                    true, neighboursRead, List.of());
        }
        return new Verdict(FailureCause.UNEXPLAINED, Confidence.LOW, null, rate, false, neighboursRead, List.of());
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

    /**
     * Whether this suspect changed: its own curves decide where they were measured, else (a neighbour) its arrival
     * does; a pressure has no arrival.
     */
    static Optional<Changed> changed(Signal n, Thresholds t) {
        Optional<SuspectRanking.Rise> own = n.ownRise();
        if (own.isPresent()) {
            return own.get().rise() >= t.minActivityRise() ? Optional.of(new Changed(n, own.get())) : Optional.empty();
        }
        return n.neighbour() && n.suspect().arrival() > 0 ? Optional.of(new Changed(n, null)) : Optional.empty();
    }
}
