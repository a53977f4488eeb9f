package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * Exact allocated and used normalized GPU-hours of one group on one GPU model, as the ledger reports them, and the
 * energy the group's units drew.
 *
 * @param cluster the cluster, when the ledger was asked by cluster (a card pricing energy per cluster), else null
 */
public record UsageLine(String group, String model, String cluster, BigDecimal hours, BigDecimal usedHours,
                        BigDecimal energyKWh) {

    /** Printed for grants whose owner the ledger could not resolve on the chosen dimension. */
    public static final String UNASSIGNED = "(unassigned)";

    public UsageLine {
        group = group == null || group.isBlank() ? UNASSIGNED : group;
        Objects.requireNonNull(hours, "hours");
        // A ledger that measured nothing for these grants reports no used hours: all of it shows as idle.
        usedHours = usedHours == null ? BigDecimal.ZERO : usedHours;
        // A ledger that reports no energy measured none.
        energyKWh = energyKWh == null ? BigDecimal.ZERO : energyKWh;
    }

    /** Allocated and used hours, no energy. */
    public UsageLine(String group, String model, BigDecimal hours, BigDecimal usedHours) {
        this(group, model, null, hours, usedHours, BigDecimal.ZERO);
    }

    /** Allocated hours with nothing measured as used. */
    public UsageLine(String group, String model, BigDecimal hours) {
        this(group, model, hours, BigDecimal.ZERO);
    }
}
