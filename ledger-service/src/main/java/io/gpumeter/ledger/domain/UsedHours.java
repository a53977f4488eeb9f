package io.gpumeter.ledger.domain;

import java.math.BigDecimal;

/**
 * Measured use of one group's allocations over a window, in card-equivalent hours.
 *
 * @param coveredGpuHours the allocated hours during which the card was measured at all
 * @param metrics         the activity fields the figure came from, comma-separated
 * @param exclusive       every measured minute had a single occupant on its card (no apportioning)
 */
public record UsedHours(BigDecimal usedGpuHours, BigDecimal coveredGpuHours, String metrics, boolean exclusive) {
}
