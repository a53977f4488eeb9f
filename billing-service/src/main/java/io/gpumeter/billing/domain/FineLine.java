package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * Exact allocated and used normalized GPU-hours of one {@link FineKey} during one rate-card stretch of a month, and
 * the energy its units drew.
 *
 * @param stretch the stretch's index in its month's list of stretches (time order)
 */
public record FineLine(int stretch, FineKey key, BigDecimal allocatedHours, BigDecimal usedHours,
                       BigDecimal energyKWh) {

    public FineLine {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(allocatedHours, "allocatedHours");
        usedHours = usedHours == null ? BigDecimal.ZERO : usedHours;
        energyKWh = energyKWh == null ? BigDecimal.ZERO : energyKWh;
    }

    /** Hours without energy. */
    public FineLine(int stretch, FineKey key, BigDecimal allocatedHours, BigDecimal usedHours) {
        this(stretch, key, allocatedHours, usedHours, BigDecimal.ZERO);
    }

    /** This line with its energy left out, for a month closed before its energy was recorded. */
    public FineLine withoutEnergy() {
        return new FineLine(stretch, key, allocatedHours, usedHours, BigDecimal.ZERO);
    }
}
