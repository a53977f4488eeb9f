package io.gpumeter.ledger.hours.domain;

import java.math.BigDecimal;
import java.util.Set;

/**
 * Measured use of one group's allocations over a window, in card-equivalent hours, and the energy its units drew.
 *
 * @param coveredGpuHours       the allocated hours during which the card was measured at all
 * @param metrics               the activity fields the figure came from, comma-separated
 * @param sources               where each measured minute's figure came from
 * @param energyJoules          the units' shares of their cards' energy
 * @param energyCoveredGpuHours the allocated hours during which the card's energy was measured
 * @param energySources         where the energy came from (ENERGY_COUNTER, POWER_INTEGRAL), comma-separated
 */
public record UsedHours(BigDecimal usedGpuHours, BigDecimal coveredGpuHours, String metrics, Set<UsageSource> sources,
                        double energyJoules, BigDecimal energyCoveredGpuHours, String energySources) {

    /** Use without energy measured. */
    public UsedHours(BigDecimal usedGpuHours, BigDecimal coveredGpuHours, String metrics, Set<UsageSource> sources) {
        this(usedGpuHours, coveredGpuHours, metrics, sources, 0, BigDecimal.ZERO, null);
    }
}
