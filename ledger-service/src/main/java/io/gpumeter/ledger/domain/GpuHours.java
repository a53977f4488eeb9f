package io.gpumeter.ledger.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

/**
 * Normalized GPU-hours of one group over a window: allocated (what is invoiced) beside used (measured, showback)
 * and idle (allocated − used).
 *
 * @param key              the group's values joined with '/', in the order asked for
 * @param group            each dimension's value
 * @param usageCoverage    share of the allocated hours during which the card was measured (0..1)
 * @param activityMetric   the activity field(s) used: SM_ACTIVE where present, else GR_ENGINE_ACTIVE, else GPU_UTIL
 * @param usageConfidence  HIGH: measured, one occupant per card; MEDIUM: a shared card's activity apportioned by
 *                         allocation; LOW: only the coarse GPU_UTIL; NONE: never measured
 */
public record GpuHours(String key, Map<String, String> group, BigDecimal allocatedGpuHours, BigDecimal usedGpuHours,
                       BigDecimal idleGpuHours, BigDecimal usageCoverage, String activityMetric, String usageConfidence) {

    public static GpuHours of(String key, Map<String, String> group, BigDecimal allocated, UsedHours used) {
        if (used == null || used.coveredGpuHours().signum() == 0) {
            return new GpuHours(key, group, allocated, BigDecimal.ZERO, allocated, BigDecimal.ZERO, null, "NONE");
        }
        BigDecimal coverage = allocated.signum() == 0 ? BigDecimal.ZERO
                : used.coveredGpuHours().divide(allocated, 6, RoundingMode.HALF_EVEN).min(BigDecimal.ONE);
        String confidence = "GPU_UTIL".equals(used.metrics()) ? "LOW" : used.exclusive() ? "HIGH" : "MEDIUM";
        return new GpuHours(key, group, allocated, used.usedGpuHours(), allocated.subtract(used.usedGpuHours()),
                coverage, used.metrics(), confidence);
    }
}
