package io.gpumeter.ledger.governance.domain;

import java.math.BigDecimal;
import java.util.List;

/** The distribution of the waits of one group: count and nearest-rank percentiles, in seconds. */
public record QueueWaitRow(String key, int count, BigDecimal p50Seconds, BigDecimal p95Seconds, BigDecimal p99Seconds,
                           BigDecimal maxSeconds) {

    public static QueueWaitRow of(String key, List<Long> waitMillis) {
        long[] sorted = waitMillis.stream().mapToLong(Long::longValue).sorted().toArray();
        return new QueueWaitRow(key, sorted.length, seconds(NearestRank.ofSorted(sorted, 50)),
                seconds(NearestRank.ofSorted(sorted, 95)), seconds(NearestRank.ofSorted(sorted, 99)),
                seconds(sorted[sorted.length - 1]));
    }

    static BigDecimal seconds(long millis) {
        return BigDecimal.valueOf(millis, 3).stripTrailingZeros();
    }
}
