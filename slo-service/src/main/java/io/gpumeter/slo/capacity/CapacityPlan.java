package io.gpumeter.slo.capacity;

import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.util.List;

/**
 * The capacity plan (Q10) as of {@code at}: per GPU model its supply, the commitment of each demand shape, the cards
 * they need on the horizon's busiest day with each margin stacked, and the gap.
 *
 * @param historyFrom the first local day's start; each model's trend is fitted only over the days it was in the
 *                    inventory
 */
@RegisterForReflection(targets = {CapacityPlan.class, CapacityPlan.Terms.class, CapacityPlan.ModelCommitment.class,
        CapacityPlan.SupplyView.class, CapacityPlan.Stack.class, CapacityPlan.Range.class, CapacityPlan.Margins.class,
        CapacityPlan.QueueView.class, CapacityPlan.ShapeCommitment.class, CapacityPlan.ServiceRef.class,
        CapacityPlan.SloRef.class, CapacityPlan.Deliverable.class, CapacityPlan.DemandView.class,
        CapacityPlan.ShapeSupply.class, CapacityPlan.Degrade.class, Margin.class})
public record CapacityPlan(String at, String historyFrom, String historyTo, int historyDays, int horizonDays,
                           String timeZone, String method, Terms terms, List<ModelCommitment> models) {

    public static final String METHOD = "per demand shape: a least-squares line through its daily demand over the days "
            + "its model was in the inventory, the horizon's busiest day on it with a prediction interval "
            + "±z·σ·√(1 + 1/n + (x − x̄)²/Sxx); base cards = that demand at the shape's deliverable rate; "
            + "cards needed = base / (1 − jitter − failures − peaks), each margin a share of capacity";

    /** The configured terms: the utilization of the allocated-hours rule, the interval's quantile, the floors. */
    public record Terms(BigDecimal targetUtilization, BigDecimal z, BigDecimal jitterFloor, BigDecimal failuresFloor,
                        BigDecimal peaksFloor) {
    }

    /** One model: its supply, its shapes' commitments, the cards they need stacked, and the gap to usable cards. */
    public record ModelCommitment(String model, List<String> spellings, String inventorySince, SupplyView supply,
                                  Margins margins, QueueView queue, List<ShapeCommitment> shapes, Stack cardsNeeded,
                                  Range gap, String summary) {
    }

    /** The inventory at the plan's instant and the shares cordons and failures took over the history. */
    public record SupplyView(int cards, int cordoned, int failed, int usable, BigDecimal cardHours,
                             BigDecimal usableCardHours, List<ShapeSupply> shapes) {
    }

    /** Cards in the parts each margin adds; {@code capped} when the margins together hit the model's limit. */
    public record Stack(BigDecimal base, BigDecimal jitter, BigDecimal failures, BigDecimal peaks, BigDecimal total,
                        BigDecimal low, BigDecimal high, boolean capped) {
    }

    /** A point figure and its range over the forecast's interval. */
    public record Range(BigDecimal cards, BigDecimal low, BigDecimal high) {
    }

    public record Margins(Margin jitter, Margin failures, Margin peaks) {
    }

    /**
     * The model's queue figures: the worst day's queue-wait p95 and the median of the daily p95s, GPUs pending at the
     * busiest hour, and the queue-wait ceiling promised (the median p95 × 1.5).
     */
    public record QueueView(BigDecimal p95PeakSeconds, String p95PeakDay, BigDecimal p95MedianSeconds,
                            BigDecimal pendingPeakGpus, String pendingPeakHour, Integer busiestHourOfDay,
                            BigDecimal pendingAtBusiestHour, BigDecimal queueWaitCeilingSeconds) {
    }

    /**
     * One demand shape's commitment.
     *
     * @param rule         {@code acceptance} (throughput per GPU at the SLO from the latest passing run) or
     *                     {@code allocated-hours} (GPU-hours per day at the target utilization)
     * @param degradesFirst the configured policy and where it was configured
     */
    public record ShapeCommitment(String workloadClass, String classRule, String shape, String kind,
                                  ServiceRef service, SloRef slo, String rule, Deliverable deliverable,
                                  DemandView demand, Margins margins, Stack cardsNeeded, ShapeSupply supply,
                                  Range gap, BigDecimal queueWaitCeilingSeconds, Degrade degradesFirst) {
    }

    public record ServiceRef(String namespace, String name, String sloService) {
    }

    public record SloRef(String name, String sli, BigDecimal thresholdMs, BigDecimal target) {
    }

    /**
     * What one GPU delivers by the shape's rule: for {@code acceptance} requests per second at the SLO (measured and
     * committed after the margins) with the run that measured it; for {@code allocated-hours} the GPU-hours a card
     * gives a day at the target utilization.
     */
    public record Deliverable(BigDecimal perGpu, BigDecimal committedPerGpu, String unit, Long runId, String runName,
                              String form, String measuredTo, String basis) {
    }

    /** The fitted demand in the rule's unit: the days fitted, the trend and the horizon's busiest day. */
    public record DemandView(String unit, int daysFitted, String firstDayFitted, BigDecimal lastDay,
                             BigDecimal slopePerDay, BigDecimal growthPerWeek, boolean trendClear, String forecastDay,
                             BigDecimal forecast, BigDecimal forecastLow, BigDecimal forecastHigh, int pods) {
    }

    /** Usable cards offering the shape at the plan's instant, the units they hold and those still free. */
    public record ShapeSupply(String shape, String kind, int cards, int units, int freeUnits) {
    }

    public record Degrade(String policy, String configuredBy) {
    }
}
