package io.gpumeter.ledger.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Normalized GPU-hours of one group over a window: allocated (what is invoiced) beside used (measured, showback)
 * and idle (allocated − used).
 *
 * @param key              the group's values joined with '/', in the order asked for
 * @param group            each dimension's value
 * @param usageCoverage    share of the allocated hours during which the card was measured (0..1)
 * @param activityMetric   the activity field(s) used: SM_ACTIVE where present, else GR_ENGINE_ACTIVE, else GPU_UTIL
 *                         (VGPU_CORE_UTIL for HAMi containers; GPU_UTIL also names per-process SM time)
 * @param usageConfidence  HIGH: measured on the unit alone (its MIG instance, its HAMi container, a card with one
 *                         occupant); MEDIUM: a shared card's activity apportioned, or per-process SM time; LOW: only
 *                         the card's coarse GPU_UTIL; NONE: never measured
 * @param usageSource      the {@link UsageSource}s the figure came from, comma-separated in order of trust
 */
public record GpuHours(String key, Map<String, String> group, BigDecimal allocatedGpuHours, BigDecimal usedGpuHours,
                       BigDecimal idleGpuHours, BigDecimal usageCoverage, String activityMetric, String usageConfidence,
                       String usageSource) {

    public static GpuHours of(String key, Map<String, String> group, BigDecimal allocated, UsedHours used) {
        if (used == null || used.coveredGpuHours().signum() == 0) {
            return new GpuHours(key, group, allocated, BigDecimal.ZERO, allocated, BigDecimal.ZERO, null, "NONE", null);
        }
        BigDecimal coverage = allocated.signum() == 0 ? BigDecimal.ZERO
                : used.coveredGpuHours().divide(allocated, 6, RoundingMode.HALF_EVEN).min(BigDecimal.ONE);
        return new GpuHours(key, group, allocated, used.usedGpuHours(), allocated.subtract(used.usedGpuHours()),
                coverage, used.metrics(), confidence(used),
                used.sources().stream().map(Enum::name).collect(Collectors.joining(",")));
    }

    /** Process SM time is GPU_UTIL too, but measured per pod: it is not the card's coarse figure. */
    static String confidence(UsedHours used) {
        if ("GPU_UTIL".equals(used.metrics()) && !used.sources().contains(UsageSource.PROCESS)) {
            return "LOW";
        }
        return used.sources().stream().allMatch(UsageSource::unshared) ? "HIGH" : "MEDIUM";
    }
}
