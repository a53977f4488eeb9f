package io.gpumeter.collector.latency;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * One histogram series' observations per bucket (not cumulative), bucket i holding the observations above bound
 * i−1 and at or under bound i; the last bound is +Inf.
 *
 * @param bounds upper bounds in seconds, ascending, the last one +Inf
 * @param counts observations per bucket
 */
public record Buckets(double[] bounds, long[] counts) {

    public Buckets {
        if (bounds.length != counts.length || bounds.length == 0 || bounds[bounds.length - 1] != Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("bounds and counts must pair up and end at +Inf");
        }
        bounds = bounds.clone();
        counts = counts.clone();
    }

    public long total() {
        return Arrays.stream(counts).sum();
    }

    /**
     * What was observed since {@code before}. A bucket below its earlier count means the process restarted and its
     * counters began again: then everything counted now is new. Different bounds (an upgraded server) count as a
     * restart too.
     */
    public Buckets since(Buckets before) {
        if (!Arrays.equals(bounds, before.bounds)) {
            return this;
        }
        long[] delta = new long[counts.length];
        for (int i = 0; i < counts.length; i++) {
            delta[i] = counts[i] - before.counts[i];
            if (delta[i] < 0) {
                return this;
            }
        }
        return new Buckets(bounds, delta);
    }

    /** Adds another series' counts with the same bounds (another engine of the same model); null if they differ. */
    Buckets plus(Buckets other) {
        if (!Arrays.equals(bounds, other.bounds)) {
            return null;
        }
        long[] sum = counts.clone();
        for (int i = 0; i < sum.length; i++) {
            sum[i] += other.counts[i];
        }
        return new Buckets(bounds, sum);
    }

    /** Whether every observation can be given a value: false when the only bucket is +Inf and it is not empty. */
    boolean valued() {
        return bounds.length > 1 || total() == 0;
    }

    /**
     * The value of the observation at a 0-based rank in ascending order, in milliseconds: its bucket's upper bound,
     * so a value is exact to the bucket's width. Observations above the last finite bound are given that bound, a
     * lower limit.
     */
    double valueMsAt(long rank) {
        long below = 0;
        for (int i = 0; i < counts.length; i++) {
            below += counts[i];
            if (rank < below) {
                double bound = i == bounds.length - 1 ? bounds[bounds.length - 2] : bounds[i];
                // through the decimal text: 0.025 s is 25 ms, not 25.000000000000004
                return new BigDecimal(Double.toString(bound)).movePointRight(3).doubleValue();
            }
        }
        throw new IndexOutOfBoundsException("rank " + rank + " of " + below);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Buckets b && Arrays.equals(bounds, b.bounds) && Arrays.equals(counts, b.counts);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(bounds) + Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return "Buckets" + Arrays.toString(bounds) + "=" + Arrays.toString(counts);
    }
}
