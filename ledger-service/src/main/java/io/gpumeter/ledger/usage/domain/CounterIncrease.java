package io.gpumeter.ledger.usage.domain;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A counter's increase per minute from its readings, as Prometheus's {@code increase()} counts one: the increase
 * between two consecutive readings is the later minus the earlier, and a reading below the earlier one is a reset
 * (the driver reloaded and the counter started again from zero), which counts the later reading whole.
 * <p>
 * Two rules go beyond Prometheus. A fall to more than half of the earlier reading is no reset but a stale reading
 * (the copies a MIG-mode exporter prints of a card's counter are read at slightly different instants and fold into one
 * series): it counts nothing and the earlier reading stays the reference. Two readings more than {@link #MAX_GAP}
 * apart are not bridged: what happened between them is not known, and no minute is covered by it.
 * <p>
 * Each pair's increase is spread over the minutes between its readings in proportion to the time in each, so a
 * minute's figure does not depend on where the scrapes fell; a time counter (a violation) never gains more than the
 * time between its readings.
 */
public final class CounterIncrease {

    /** The longest stretch between two readings that is still counted, as Prometheus's staleness bound. */
    public static final Duration MAX_GAP = Duration.ofMinutes(5);

    /** One reading: epoch milliseconds and the counter's value. */
    public record Reading(long atMillis, double value) {
    }

    /**
     * What a minute gained.
     *
     * @param sum      the increase within the minute, in the derived unit (joules, seconds)
     * @param max      the highest rate of a stretch in the minute, per second (watts; a share of time 0..1)
     * @param covered  the seconds of the minute between two counted readings
     * @param seconds  the bitmask of the seconds of the minute the stretches touch, bit n for second n
     */
    public record Minute(Instant minute, double sum, double max, double covered, long seconds) {

        /** The minute's row counts its covered seconds as samples, so its mean is the rate over them. */
        public int samples() {
            return (int) Math.max(1, Math.round(covered));
        }
    }

    private CounterIncrease() {
    }

    /**
     * The minutes of [from, to) the readings cover, each with what it gained.
     *
     * @param readings the series' readings in time order, one per instant; a stale one (see above) neither counts
     *                 nor moves the reference
     */
    public static Map<Instant, Minute> perMinute(List<Reading> readings, CounterField field, Instant from, Instant to) {
        Map<Instant, Acc> acc = new TreeMap<>();
        double reference = Double.NaN;
        long referenceAt = 0;
        for (Reading r : readings) {
            long dt = r.atMillis() - referenceAt;
            if (Double.isNaN(reference) || dt > MAX_GAP.toMillis()) {
                reference = r.value();
                referenceAt = r.atMillis();
                continue;
            }
            if (dt <= 0) {
                continue;
            }
            double increase;
            if (r.value() >= reference) {
                increase = r.value() - reference;
            } else if (r.value() < reference / 2) {
                increase = r.value();
            } else {
                continue;
            }
            double derived = increase * field.toDerived();
            if (field.aTimeShare()) {
                derived = Math.min(derived, dt / 1000.0);
            }
            spread(acc, referenceAt, r.atMillis(), derived, from, to);
            reference = r.value();
            referenceAt = r.atMillis();
        }
        Map<Instant, Minute> out = new TreeMap<>();
        acc.forEach((minute, a) -> out.put(minute, new Minute(minute, a.sum, a.max, a.covered, a.seconds)));
        return out;
    }

    /** Spreads one stretch's increase over the minutes of [from, to) it overlaps, by the time in each. */
    private static void spread(Map<Instant, Acc> acc, long start, long end, double increase, Instant from, Instant to) {
        double rate = increase / ((end - start) / 1000.0);
        long minute = Instant.ofEpochMilli(start).truncatedTo(ChronoUnit.MINUTES).toEpochMilli();
        for (long m = minute; m < end; m += 60_000) {
            long a = Math.max(start, m);
            long b = Math.min(end, m + 60_000);
            Instant at = Instant.ofEpochMilli(m);
            if (b <= a || at.isBefore(from) || !at.isBefore(to)) {
                continue;
            }
            Acc x = acc.computeIfAbsent(at, k -> new Acc());
            double seconds = (b - a) / 1000.0;
            x.sum += rate * seconds;
            x.max = Math.max(x.max, rate);
            x.covered += seconds;
            int first = (int) ((a - m) / 1000);
            int last = (int) ((b - m - 1) / 1000);
            for (int s = first; s <= last; s++) {
                x.seconds |= 1L << s;
            }
        }
    }

    private static final class Acc {
        double sum;
        double max;
        double covered;
        long seconds;
    }
}
