package io.gpumeter.ledger.demand.domain;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * The demand side of the capacity plan over a window: allocated hours by model, workload class, request shape and
 * serving workload, day by day; and per model the governance peaks, queue waits and pending GPUs.
 *
 * @param cluster the cluster asked for, null for all
 */
public record Demand(Instant from, Instant to, String timeZone, String cluster, List<Shape> shapes, List<Peak> peaks) {

    /**
     * One group's allocated card-equivalent hours.
     *
     * @param model      the canonical model ({@code GpuModels.canonical}), null for units on a card of no known model
     * @param classRule  the rule that classified the group's pods
     * @param shape      {@code whole}, {@code mig-<profile>}, {@code hami}, {@code shared} or {@code dra:<deviceClass>}
     * @param kind       WHOLE, MIG, HAMI, SHARED or DRA
     * @param service    the serving workload of an inference group, null for the other classes
     * @param pods       distinct pods of the group
     * @param gpuHours   the days' hours together
     * @param days       every local day of the window, zeros included
     */
    public record Shape(String model, String workloadClass, String classRule, String shape, String kind,
                        WorkloadClassifier.Service service, int pods, BigDecimal gpuHours, List<Day> days) {
    }

    public record Day(String day, BigDecimal gpuHours) {
    }

    /**
     * A model's governance peaks.
     *
     * @param model               the canonical model, null for demand tied to none
     * @param spellings           the model names as reported, that make this one
     * @param queueWaitP95Seconds the daily p95 queue waits' worst and median, null without waits
     */
    public record Peak(String model, List<String> spellings, QueueWaitPeak queueWaitP95Seconds, PendingPeak pending) {
    }

    /**
     * @param peak    the worst day's p95 (nearest rank) of the waits admitted that day, in seconds
     * @param peakDay the first day with that p95
     * @param median  the median (nearest rank) of the days' p95s
     * @param days    days with at least one wait admitted
     * @param waits   waits admitted in the window
     */
    public record QueueWaitPeak(BigDecimal peak, String peakDay, BigDecimal median, int days, int waits) {
    }

    /**
     * GPUs (card-equivalents) asked for by pods waiting to be placed, as time-weighted means per hour.
     *
     * @param peakGpus              the highest hour's mean
     * @param peakHour              the first hour with it (its start), null when nothing waited
     * @param busiestHourOfDay      the local hour of day whose mean over the window's hours is highest, null when
     *                              nothing waited
     * @param meanGpusAtBusiestHour that mean
     * @param pods                  pods that waited in the window
     */
    public record PendingPeak(BigDecimal peakGpus, Instant peakHour, Integer busiestHourOfDay,
                              BigDecimal meanGpusAtBusiestHour, int pods) {
    }
}
