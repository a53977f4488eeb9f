package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * Exact allocated and used normalized GPU-hours of one group on one GPU model, as the ledger reports them.
 */
public record UsageLine(String group, String model, BigDecimal hours, BigDecimal usedHours) {

    /** Printed for grants whose owner the ledger could not resolve on the chosen dimension. */
    public static final String UNASSIGNED = "(unassigned)";

    public UsageLine {
        group = group == null || group.isBlank() ? UNASSIGNED : group;
        Objects.requireNonNull(hours, "hours");
        // A ledger that measured nothing for these grants reports no used hours: all of it shows as idle.
        usedHours = usedHours == null ? BigDecimal.ZERO : usedHours;
    }

    /** Allocated hours with nothing measured as used. */
    public UsageLine(String group, String model, BigDecimal hours) {
        this(group, model, hours, BigDecimal.ZERO);
    }
}
