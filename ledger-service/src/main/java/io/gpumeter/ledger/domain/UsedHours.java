package io.gpumeter.ledger.domain;

import java.math.BigDecimal;
import java.util.Set;

/**
 * Measured use of one group's allocations over a window, in card-equivalent hours.
 *
 * @param coveredGpuHours the allocated hours during which the card was measured at all
 * @param metrics         the activity fields the figure came from, comma-separated
 * @param sources         where each measured minute's figure came from
 */
public record UsedHours(BigDecimal usedGpuHours, BigDecimal coveredGpuHours, String metrics, Set<UsageSource> sources) {
}
