package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * Exact allocated normalized GPU-hours of one group on one GPU model, as the ledger reports them.
 */
public record UsageLine(String group, String model, BigDecimal hours) {

    /** Printed for grants whose owner the ledger could not resolve on the chosen dimension. */
    public static final String UNASSIGNED = "(unassigned)";

    public UsageLine {
        group = group == null || group.isBlank() ? UNASSIGNED : group;
        Objects.requireNonNull(hours, "hours");
    }
}
