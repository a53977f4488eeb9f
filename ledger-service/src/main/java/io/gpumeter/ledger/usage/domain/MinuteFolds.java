package io.gpumeter.ledger.usage.domain;

import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.fact.UsageSample;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A delivery's values gathered per series and minute, each second of a minute once — the earliest reading of a
 * second wins, however many samples or partials carried it — so the rollup of every minute row is written by one
 * statement row. Whether a second was counted by an earlier delivery is the database's to decide.
 */
public final class MinuteFolds {

    /** A row of the minute rollups. */
    public record Key(String gpuUuid, String scope, String scopeKey, String field, Instant minute) {
    }

    /** The seconds of one minute row this delivery brings, by second of the minute. */
    public static final class Fold {
        private long seconds;
        private int offered;
        private final int[] millis = new int[60];
        private final double[] values = new double[60];

        void offer(int millisIntoMinute, double value) {
            offered++;
            int second = millisIntoMinute / 1000;
            long bit = 1L << second;
            if ((seconds & bit) == 0 || millisIntoMinute < millis[second]) {
                seconds |= bit;
                millis[second] = millisIntoMinute;
                values[second] = value;
            }
        }

        /** The bitmask of the seconds held, bit n for second n. */
        public long seconds() {
            return seconds;
        }

        public int count() {
            return Long.bitCount(seconds);
        }

        public double sum() {
            double sum = 0;
            for (int s = 0; s < 60; s++) {
                if ((seconds & (1L << s)) != 0) {
                    sum += values[s];
                }
            }
            return sum;
        }

        public double max() {
            double max = Double.NEGATIVE_INFINITY;
            for (int s = 0; s < 60; s++) {
                if ((seconds & (1L << s)) != 0) {
                    max = Math.max(max, values[s]);
                }
            }
            return max;
        }

        /** The milliseconds into the minute of a second held (its earliest reading). */
        public int millis(int second) {
            return millis[second];
        }

        /** The value of a second held. */
        public double value(int second) {
            return values[second];
        }
    }

    private final Map<Key, Fold> folds = new LinkedHashMap<>();
    private int offered;

    public static MinuteFolds of(Collection<UsageSample> samples, Collection<UsagePartial> partials) {
        MinuteFolds out = new MinuteFolds();
        samples.forEach(out::add);
        partials.forEach(out::add);
        return out;
    }

    public void add(UsageSample s) {
        Instant minute = s.at().truncatedTo(ChronoUnit.MINUTES);
        offer(new Key(s.gpuUuid(), s.scope().name(), s.scopeKey() == null ? "" : s.scopeKey(), s.field().name(), minute),
                (int) Duration.between(minute, s.at()).toMillis(), s.value());
    }

    public void add(UsagePartial p) {
        Key key = new Key(p.gpuUuid(), p.scope().name(), p.scopeKey() == null ? "" : p.scopeKey(), p.field().name(),
                p.minute());
        for (int i = 0; i < p.size(); i++) {
            offer(key, p.millis()[i], p.values()[i]);
        }
    }

    private void offer(Key key, int millis, double value) {
        offered++;
        folds.computeIfAbsent(key, k -> new Fold()).offer(millis, value);
    }

    public Map<Key, Fold> rows() {
        return folds;
    }

    /**
     * The rows of the fields {@code keep} accepts, as folds of their own; each keeps the count of values offered for
     * its rows, so the two parts of a delivery add up to the whole.
     */
    public MinuteFolds only(java.util.function.Predicate<String> keep) {
        MinuteFolds out = new MinuteFolds();
        folds.forEach((key, fold) -> {
            if (keep.test(key.field())) {
                out.folds.put(key, fold);
                out.offered += fold.offered;
            }
        });
        return out;
    }

    /** Values offered, duplicates within the delivery included. */
    public int offered() {
        return offered;
    }

    /** The days (UTC) the rows fall on. */
    public Set<LocalDate> days() {
        Set<LocalDate> days = new TreeSet<>();
        folds.keySet().forEach(k -> days.add(k.minute().atOffset(ZoneOffset.UTC).toLocalDate()));
        return days;
    }
}
