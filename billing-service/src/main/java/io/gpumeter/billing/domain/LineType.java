package io.gpumeter.billing.domain;

import java.util.Locale;

/**
 * What a report line is: the period's own usage, or a correction carried into it for an earlier, closed month.
 */
public enum LineType {
    /** Hours used in the report's own period. */
    USAGE,
    /** The difference between a closed month as the ledger now tells it and as it was billed. */
    ADJUSTMENT,
    /** Capacity the fleet could supply that no grant used: fleet capacity cost minus the usage lines. */
    UNALLOCATED;

    /** As printed in the line_type column. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
