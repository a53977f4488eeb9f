package io.gpumeter.ledger.governance.domain;

import java.util.Arrays;
import java.util.Collection;

/**
 * Percentiles by the nearest-rank method: the p-th percentile of n sorted values is the value at rank
 * ceil(p/100 · n), counting from 1. It is always one of the observed values, never an interpolation.
 */
public final class NearestRank {

    private NearestRank() {
    }

    /** The rank (1-based) of the p-th percentile among n values, exact in integers. */
    public static int rank(int percent, int n) {
        if (percent < 1 || percent > 100) {
            throw new IllegalArgumentException("percent must be within 1..100, got " + percent);
        }
        if (n < 1) {
            throw new IllegalArgumentException("no values");
        }
        return (int) Math.max(1, ((long) percent * n + 99) / 100);
    }

    /** The p-th percentile of values already sorted ascending. */
    public static long ofSorted(long[] sorted, int percent) {
        return sorted[rank(percent, sorted.length) - 1];
    }

    public static long of(Collection<Long> values, int percent) {
        long[] sorted = values.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        return ofSorted(sorted, percent);
    }
}
