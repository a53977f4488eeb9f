package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.List;

/**
 * The capacity plan of one GPU model: its demand trend, queues and fragmentation, the supply after the margin, the
 * forecast demand over the horizon with its interval, the gap (positive: cards to spare, negative: cards short) and
 * a one-line summary.
 */
public record ModelPlan(String model, Demand demand, QueueView queue, ModelHistory.Fragmentation fragmentation,
                        Supply supply, Forecast forecast, Gap gap, String summary) {

    /**
     * The history and its fitted line, in allocated GPU-hours per 24 h.
     *
     * @param growthPerWeek slope × 7 over the fitted value on the last day (null when that value is not positive)
     * @param trendClear    whether the slope's interval excludes zero
     * @param peakUtilization the busiest day's allocated hours over its capacity card-hours (null without capacity)
     */
    public record Demand(List<DayView> days, BigDecimal slopePerDay, BigDecimal slopeLow, BigDecimal slopeHigh,
                         BigDecimal levelLastDay, BigDecimal residualSigma, BigDecimal growthPerWeek,
                         boolean trendClear, BigDecimal peakUtilization, String peakDay) {
    }

    /** One day of history. */
    public record DayView(String day, BigDecimal allocatedGpuHours, BigDecimal capacityCardHours) {
    }

    /**
     * The queues counted for the model over the recent days.
     *
     * @param rejectionRate rejected / workloads (null without workloads)
     */
    public record QueueView(String scope, List<String> clusterQueues, List<QueueDayView> dailyP95Seconds,
                            int daysOverLine, int days, int workloads, int rejected, BigDecimal rejectionRate) {
    }

    /** One recent day's queue-wait p95. */
    public record QueueDayView(String day, BigDecimal p95Seconds) {
    }

    /**
     * Cards the inventory supplies on the last day of history, and what is left after the margin.
     */
    public record Supply(BigDecimal lastDayCardHours, BigDecimal cards, BigDecimal margin, BigDecimal usableCards) {
    }

    /**
     * The demand on the horizon's busiest day, with its prediction interval, and the cards it needs at the target
     * utilization.
     */
    public record Forecast(String day, BigDecimal gpuHoursPerDay, BigDecimal gpuHoursLow, BigDecimal gpuHoursHigh,
                           BigDecimal cardsNeeded, BigDecimal cardsNeededLow, BigDecimal cardsNeededHigh) {
    }

    /** Usable cards minus cards needed: the point value and its range over the forecast's interval. */
    public record Gap(BigDecimal cards, BigDecimal low, BigDecimal high) {
    }
}
