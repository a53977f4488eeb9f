package io.gpumeter.ledger.idle.domain;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Q3 over a window: each group's time split into empty, queued-while-empty, allocated-not-busy, busy and
 * allocated-but-unmeasured, and its allocated-not-busy time by the host's cause.
 *
 * @param busyThreshold   the activity at or above which an allocated minute is busy
 * @param causeThresholds what the host's causes were decided by
 */
public record IdleReport(Instant from, Instant to, String groupBy, String cluster, double busyThreshold,
                         IdleCauseThresholds causeThresholds, List<Row> rows) {

    /**
     * One group's split.
     *
     * @param seconds               the split in card-seconds; grouped by tenant or pod, a shared card's allocated
     *                              seconds are apportioned by allocated fraction, and time no tenant (or pod) held
     *                              sits in "(unallocated)"
     * @param shares                the split as parts of the group's total
     * @param allocatedNotBusyHours the allocated-not-busy card-seconds as hours, to the microhour
     * @param allocatedNotBusyBy    those hours by cause (CPU_SATURATED, IO_WAIT, NETWORK, UNEXPLAINED, in the order
     *                              they are decided), adding up to allocatedNotBusyHours
     * @param hostCoverage          the share of the allocated-not-busy time in which the pod's cgroups and its node
     *                              both had a host row; null when the group had no such time
     * @param activityMetrics       the activity fields the busy test read, comma-separated
     * @param energyKWh             the energy the group's units drew: each minute of a card's energy split among the
     *                              units on it by allocated fraction, as GPU-hours reads split it
     * @param idleEnergyKWh         the energy the group's cards drew while no unit held them, booked to no tenant
     *                              (grouped by tenant or pod, it is the "(unallocated)" row's)
     */
    public record Row(String key, Map<String, String> group, IdleSplit seconds, IdleSplit shares,
                      BigDecimal allocatedNotBusyHours, Map<String, BigDecimal> allocatedNotBusyBy,
                      BigDecimal hostCoverage, String activityMetrics, BigDecimal energyKWh, BigDecimal idleEnergyKWh) {
    }
}
