package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One group's line on a cost report; numbers already carry their printed scale. Allocated cost is the invoice;
 * the used and idle columns are showback and always add up to the allocated figures. An adjustment line carries
 * the difference found later for the closed month {@code corrects} (null on usage lines). {@code energy} is the
 * energy the line's units drew (the unallocated line: what the cards drew while no unit held them), showback too.
 */
public record ReportRow(String periodStart, String periodEnd, String group, String gpuModels,
                        BigDecimal allocatedGpuHours, BigDecimal rate, String currency, BigDecimal allocatedCost,
                        String rateCardVersion, String normalizationPolicy, String normalizationVersion,
                        BigDecimal usedGpuHoursShowback, BigDecimal idleGpuHoursShowback,
                        BigDecimal usedCostShowback, BigDecimal idleCostShowback, String lineType,
                        BillingPeriod corrects, BigDecimal unallocatedShareCost, BigDecimal totalCost,
                        Energy energy) {

    public ReportRow {
        energy = energy == null ? Energy.NONE : energy;
    }

    /** A usage line of the report's own period. */
    public ReportRow(String periodStart, String periodEnd, String group, String gpuModels,
                     BigDecimal allocatedGpuHours, BigDecimal rate, String currency, BigDecimal allocatedCost,
                     String rateCardVersion, String normalizationPolicy, String normalizationVersion,
                     BigDecimal usedGpuHoursShowback, BigDecimal idleGpuHoursShowback,
                     BigDecimal usedCostShowback, BigDecimal idleCostShowback, Energy energy) {
        this(periodStart, periodEnd, group, gpuModels, allocatedGpuHours, rate, currency, allocatedCost,
                rateCardVersion, normalizationPolicy, normalizationVersion, usedGpuHoursShowback,
                idleGpuHoursShowback, usedCostShowback, idleCostShowback, LineType.USAGE.label(), null, null, null,
                energy);
    }

    /** A usage line of the report's own period that drew no energy. */
    public ReportRow(String periodStart, String periodEnd, String group, String gpuModels,
                     BigDecimal allocatedGpuHours, BigDecimal rate, String currency, BigDecimal allocatedCost,
                     String rateCardVersion, String normalizationPolicy, String normalizationVersion,
                     BigDecimal usedGpuHoursShowback, BigDecimal idleGpuHoursShowback,
                     BigDecimal usedCostShowback, BigDecimal idleCostShowback) {
        this(periodStart, periodEnd, group, gpuModels, allocatedGpuHours, rate, currency, allocatedCost,
                rateCardVersion, normalizationPolicy, normalizationVersion, usedGpuHoursShowback,
                idleGpuHoursShowback, usedCostShowback, idleCostShowback, Energy.NONE);
    }

    /** This line's figures as an adjustment to the closed month {@code corrected}. */
    public ReportRow asAdjustmentOf(BillingPeriod corrected) {
        return new ReportRow(periodStart, periodEnd, group, gpuModels, allocatedGpuHours, rate, currency,
                allocatedCost, rateCardVersion, normalizationPolicy, normalizationVersion, usedGpuHoursShowback,
                idleGpuHoursShowback, usedCostShowback, idleCostShowback, LineType.ADJUSTMENT.label(), corrected,
                unallocatedShareCost, totalCost, energy);
    }

    /** This line as the fleet's unallocated capacity. */
    public ReportRow asUnallocated() {
        return new ReportRow(periodStart, periodEnd, group, gpuModels, allocatedGpuHours, rate, currency,
                allocatedCost, rateCardVersion, normalizationPolicy, normalizationVersion, usedGpuHoursShowback,
                idleGpuHoursShowback, usedCostShowback, idleCostShowback, LineType.UNALLOCATED.label(), corrects,
                unallocatedShareCost, totalCost, energy);
    }

    /** This line with {@code share} of the unallocated capacity cost added to its allocated cost. */
    public ReportRow withShare(BigDecimal share) {
        return new ReportRow(periodStart, periodEnd, group, gpuModels, allocatedGpuHours, rate, currency,
                allocatedCost, rateCardVersion, normalizationPolicy, normalizationVersion, usedGpuHoursShowback,
                idleGpuHoursShowback, usedCostShowback, idleCostShowback, lineType, corrects, share,
                allocatedCost.add(share), energy);
    }

    public boolean isUsage() {
        return LineType.USAGE.label().equals(lineType);
    }

    /** Whether every printed quantity and amount is zero, so the line would say nothing. */
    public boolean printsAsZero() {
        return allocatedGpuHours.signum() == 0 && allocatedCost.signum() == 0 && usedGpuHoursShowback.signum() == 0
                && usedCostShowback.signum() == 0 && energy.kWh().signum() == 0;
    }

    /** The column names, in print order; the third is the grouping dimension itself (e.g. "tenant"). */
    public static List<String> columns(GroupBy groupBy) {
        return List.of("period_start", "period_end", groupBy.dimension(), "gpu_models", "allocated_gpu_hours",
                "rate", "currency", "allocated_cost", "rate_card_version", "normalization_policy",
                "normalization_version", "used_gpu_hours_showback", "idle_gpu_hours_showback",
                "used_cost_showback", "idle_cost_showback", "line_type", "corrects_period");
    }

    /** The two columns a report that reconciles with fleet capacity appends. */
    public static final List<String> SHARE_COLUMNS = List.of("unallocated_share_cost", "total_cost");

    /**
     * The energy columns, appended after all others so that no earlier column moves: kWh, and the energy cost and
     * kilograms of CO2e where the rate cards give a price or an emission factor (else empty).
     */
    public static final List<String> ENERGY_COLUMNS = List.of("energy_kwh", "energy_cost", "co2e_kg");

    /**
     * The cells in {@link #columns} order, then the {@link #SHARE_COLUMNS} when {@code withShare}, then the
     * {@link #ENERGY_COLUMNS} when {@code withEnergy}: text as String (null when empty), numbers as BigDecimal.
     */
    public List<Object> values(boolean withShare, boolean withEnergy) {
        List<Object> cells = new ArrayList<>(Arrays.asList(periodStart, periodEnd, group, gpuModels,
                allocatedGpuHours, rate, currency, allocatedCost, rateCardVersion, normalizationPolicy,
                normalizationVersion, usedGpuHoursShowback, idleGpuHoursShowback, usedCostShowback, idleCostShowback,
                lineType, corrects == null ? null : corrects.label()));
        if (withShare) {
            cells.add(unallocatedShareCost);
            cells.add(totalCost);
        }
        if (withEnergy) {
            cells.add(energy.kWh());
            cells.add(energy.cost());
            cells.add(energy.co2eKg());
        }
        return cells;
    }
}
