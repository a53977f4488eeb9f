package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

/**
 * One group's line on a cost report; numbers already carry their printed scale. Allocated cost is the invoice;
 * the used and idle columns are showback and always add up to the allocated figures.
 */
public record ReportRow(String periodStart, String periodEnd, String group, String gpuModels,
                        BigDecimal allocatedGpuHours, BigDecimal rate, String currency, BigDecimal allocatedCost,
                        String rateCardVersion, String normalizationPolicy, String normalizationVersion,
                        BigDecimal usedGpuHoursShowback, BigDecimal idleGpuHoursShowback,
                        BigDecimal usedCostShowback, BigDecimal idleCostShowback) {

    /** The column names, in print order; the third is the grouping dimension itself (e.g. "tenant"). */
    public static List<String> columns(GroupBy groupBy) {
        return List.of("period_start", "period_end", groupBy.dimension(), "gpu_models", "allocated_gpu_hours",
                "rate", "currency", "allocated_cost", "rate_card_version", "normalization_policy",
                "normalization_version", "used_gpu_hours_showback", "idle_gpu_hours_showback",
                "used_cost_showback", "idle_cost_showback");
    }

    /** The cells in {@link #columns} order: text as String, numbers as BigDecimal. */
    public List<Object> values() {
        return Arrays.asList(periodStart, periodEnd, group, gpuModels, allocatedGpuHours, rate, currency,
                allocatedCost, rateCardVersion, normalizationPolicy, normalizationVersion, usedGpuHoursShowback,
                idleGpuHoursShowback, usedCostShowback, idleCostShowback);
    }
}
