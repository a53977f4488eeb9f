package io.gpumeter.slo.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Ranks an event's suspects — its same-card neighbours, and the host and the card themselves (the service's own CPU
 * throttling, its nodes' CPU and I/O pressure, its network, its cards' power and thermal slowdowns) — by one rule: the
 * one that arrived, or whose curve rose, just before the event first.
 * <p>
 * score = arrival + ramp, each from 0 to 1. arrival = 1 - (minutes between the suspect's {@code since} and the
 * event's start) / {@link #ARRIVAL_HORIZON}, floored at 0 (1 for an arrival inside the first bad minute); the host and
 * the card do not arrive (since null: 0). ramp = the largest rise of its kind's curves ({@link SuspectKind#riseFields},
 * ratios 0..1): the mean of the {@link #RECENT} minutes before the event and its first minute, minus the mean of the
 * earlier minutes of the curve (0 when there are none: a pod that did not exist used nothing), floored at 0.
 */
public final class SuspectRanking {

    /** Activities whose rise just before an event marks a neighbour that started to compete. */
    public static final List<String> RAMP_FIELDS = SuspectKind.NEIGHBOUR.riseFields();
    public static final Duration ARRIVAL_HORIZON = Duration.ofMinutes(10);
    public static final Duration RECENT = Duration.ofMinutes(3);

    /** A minute's mean of one series. */
    public record MinuteValue(Instant minute, double value) {
    }

    /**
     * What is known of a suspect: its kind, when it arrived (null: unknown, or the host or card, which do not arrive),
     * and its curves by field; only its kind's {@link SuspectKind#riseFields} are scored.
     */
    public record Candidate(String key, SuspectKind kind, Instant since, Map<String, List<MinuteValue>> curves) {

        /** A same-card neighbour with its activity curves. */
        public static Candidate neighbour(String key, Instant since, Map<String, List<MinuteValue>> activity) {
            return new Candidate(key, SuspectKind.NEIGHBOUR, since, activity);
        }
    }

    /** One field's rise: the mean before and the mean just before the event. */
    public record Rise(String field, double before, double recent, double rise) {
    }

    /**
     * A ranked suspect with the parts of its score and a sentence per part; {@code kind} is its
     * {@link SuspectKind#label()} and {@code cause} the label of the cause it points to (both null in evidence stored
     * before the host and the card were suspects: a neighbour).
     */
    public record Suspect(int rank, String key, String kind, String cause, double score, double arrival,
                          Double arrivedMinutesBefore, double ramp, List<Rise> rises, List<String> reasons) {

        /** Its kind; a neighbour when stored without one. */
        public SuspectKind suspectKind() {
            return SuspectKind.ofLabel(kind);
        }
    }

    private SuspectRanking() {
    }

    public static List<Suspect> rank(Instant eventStart, List<Candidate> candidates) {
        List<Suspect> scored = new ArrayList<>();
        for (Candidate n : candidates) {
            scored.add(score(eventStart, n));
        }
        scored.sort(Comparator.comparingDouble(Suspect::score).reversed().thenComparing(Suspect::key));
        List<Suspect> ranked = new ArrayList<>(scored.size());
        for (int i = 0; i < scored.size(); i++) {
            Suspect s = scored.get(i);
            ranked.add(new Suspect(i + 1, s.key(), s.kind(), s.cause(), s.score(), s.arrival(),
                    s.arrivedMinutesBefore(), s.ramp(), s.rises(), s.reasons()));
        }
        return ranked;
    }

    private static Suspect score(Instant eventStart, Candidate n) {
        List<String> reasons = new ArrayList<>();
        double arrival = 0;
        Double minutesBefore = null;
        if (n.since() != null) {
            minutesBefore = round(Math.max(0, Duration.between(n.since(), eventStart).toMillis()) / 60_000d);
            arrival = Math.max(0, 1 - minutesBefore / ARRIVAL_HORIZON.toMinutes());
            reasons.add(arrival > 0
                    ? String.format(Locale.ROOT, "arrived %.1f min before the event (arrival %.3f)", minutesBefore, arrival)
                    : String.format(Locale.ROOT, "present %.1f min before the event, longer than %d min (arrival 0)",
                    minutesBefore, ARRIVAL_HORIZON.toMinutes()));
        } else {
            reasons.add(n.kind() == SuspectKind.NEIGHBOUR ? "arrival unknown (arrival 0)"
                    : "the service's own " + (n.kind() == SuspectKind.CARD_CLOCKS ? "card" : "host") + ", no arrival (arrival 0)");
        }
        List<Rise> rises = new ArrayList<>();
        double ramp = 0;
        Instant recentFrom = eventStart.minus(RECENT);
        Instant recentTo = eventStart.plus(Duration.ofMinutes(1));
        List<String> fields = n.kind().riseFields();
        for (String field : fields) {
            List<MinuteValue> curve = n.curves().get(field);
            if (curve == null || curve.isEmpty()) {
                continue;
            }
            double before = mean(curve, null, recentFrom);
            double recent = mean(curve, recentFrom, recentTo);
            double rise = Math.max(0, round(recent - before));
            rises.add(new Rise(field, round(before), round(recent), rise));
            if (rise > 0) {
                reasons.add(String.format(Locale.ROOT, "%s rose from %.3f to %.3f in the %d min before the event",
                        field, before, recent, RECENT.toMinutes()));
            }
            ramp = Math.max(ramp, rise);
        }
        if (rises.isEmpty()) {
            reasons.add("no " + String.join("/", fields) + " curve (ramp 0)");
        }
        arrival = round(arrival);
        return new Suspect(0, n.key(), n.kind().label(), n.kind().cause().label(), round(arrival + ramp), arrival,
                minutesBefore, ramp, rises, reasons);
    }

    /** The mean of the points in [from, to), from null meaning the curve's start; 0 without points. */
    private static double mean(List<MinuteValue> curve, Instant from, Instant to) {
        double sum = 0;
        int n = 0;
        for (MinuteValue v : curve) {
            if ((from == null || !v.minute().isBefore(from)) && v.minute().isBefore(to)) {
                sum += v.value();
                n++;
            }
        }
        return n == 0 ? 0 : sum / n;
    }

    private static double round(double v) {
        return Math.round(v * 1000d) / 1000d;
    }
}
