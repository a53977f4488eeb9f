package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * Exact allocated and used normalized GPU-hours of one {@link FineKey} during one rate-card stretch of a month.
 *
 * @param stretch the stretch's index in its month's list of stretches (time order)
 */
public record FineLine(int stretch, FineKey key, BigDecimal allocatedHours, BigDecimal usedHours) {

    public FineLine {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(allocatedHours, "allocatedHours");
        usedHours = usedHours == null ? BigDecimal.ZERO : usedHours;
    }
}
