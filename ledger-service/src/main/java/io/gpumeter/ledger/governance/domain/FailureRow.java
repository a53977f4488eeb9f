package io.gpumeter.ledger.governance.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * Failures of one group over a window: how many started, their rate per 1,000 allocated GPU-hours and per GPU pod
 * start, and the time to recover (MTTR) over those that recovered: nearest-rank median and mean.
 *
 * @param rootCauseClass the class of the group's cause when grouped by cause, else null
 * @param open           failures not recovered and whose subject still exists
 */
public record FailureRow(String key, String rootCauseClass, int count, BigDecimal gpuHours, long podStarts,
                         BigDecimal ratePer1000GpuHours, BigDecimal ratePerPodStart, BigDecimal mttrP50Seconds,
                         BigDecimal mttrMeanSeconds, int recovered, int open) {

    static final int SCALE = 6;

    public static FailureRow of(String key, String rootCauseClass, List<Incident> incidents, BigDecimal gpuHours,
                                long podStarts) {
        List<Long> repairs = incidents.stream().filter(i -> i.recoveredAt() != null)
                .map(i -> i.repair().toMillis()).toList();
        BigDecimal count = BigDecimal.valueOf(incidents.size());
        BigDecimal perHours = gpuHours == null || gpuHours.signum() == 0 ? null
                : count.multiply(BigDecimal.valueOf(1000)).divide(gpuHours, SCALE, RoundingMode.HALF_EVEN).stripTrailingZeros();
        BigDecimal perStart = podStarts == 0 ? null
                : count.divide(BigDecimal.valueOf(podStarts), SCALE, RoundingMode.HALF_EVEN).stripTrailingZeros();
        BigDecimal p50 = repairs.isEmpty() ? null : QueueWaitRow.seconds(NearestRank.of(repairs, 50));
        BigDecimal mean = repairs.isEmpty() ? null
                : BigDecimal.valueOf(repairs.stream().mapToLong(Long::longValue).sum())
                .divide(BigDecimal.valueOf(repairs.size() * 1000L), 3, RoundingMode.HALF_EVEN).stripTrailingZeros();
        int open = (int) incidents.stream().filter(Incident::open).count();
        return new FailureRow(key, rootCauseClass, incidents.size(),
                gpuHours == null ? null : gpuHours.setScale(SCALE, RoundingMode.HALF_EVEN).stripTrailingZeros(),
                podStarts, perHours, perStart, p50, mean, repairs.size(), open);
    }
}
