package io.gpumeter.ledger.domain;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Q3 over a window: each group's time split into empty, queued-while-empty, allocated-not-busy, busy and
 * allocated-but-unmeasured.
 *
 * @param busyThreshold the activity at or above which an allocated minute is busy
 */
public record IdleReport(Instant from, Instant to, String groupBy, String cluster, double busyThreshold, List<Row> rows) {

    /**
     * One group's split.
     *
     * @param seconds         the split in card-seconds; grouped by tenant, a shared card's allocated seconds are
     *                        apportioned by allocated fraction, and time no tenant held sits in "(unallocated)"
     * @param shares          the split as parts of the group's total
     * @param activityMetrics the activity fields the busy test read, comma-separated
     * @param energyKWh       the energy the group's units drew: each minute of a card's energy split among the units
     *                        on it by allocated fraction, as GPU-hours reads split it
     * @param idleEnergyKWh   the energy the group's cards drew while no unit held them, booked to no tenant (grouped
     *                        by tenant, it is the "(unallocated)" row's)
     */
    public record Row(String key, Map<String, String> group, IdleSplit seconds, IdleSplit shares, String activityMetrics,
                      java.math.BigDecimal energyKWh, java.math.BigDecimal idleEnergyKWh) {
    }
}
