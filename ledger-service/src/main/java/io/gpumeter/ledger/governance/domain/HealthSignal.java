package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.UsageField;

/**
 * A dcgm-exporter series that says the card's memory is unwell. Each is bad while it reads above 0 and clear at 0,
 * which only a GPU reset or a driver reload brings: the flags and the pending pages are cleared by the reset that
 * applies the remap or retirement, and the double-bit ECC count is volatile (it counts since the driver loaded).
 */
public enum HealthSignal {
    ROW_REMAP_FAILURE(UsageField.ROW_REMAP_FAILURE, "DCGM_FI_DEV_ROW_REMAP_FAILURE", false,
            "a row remap failed: the card needs a reset, and a replacement if it fails again"),
    ROW_REMAP_PENDING(UsageField.ROW_REMAP_PENDING, "DCGM_FI_DEV_ROW_REMAP_PENDING", false,
            "a row remap waits for a GPU reset"),
    ECC_DBE_VOLATILE(UsageField.ECC_DBE_VOLATILE, "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", true,
            "double-bit ECC errors since the driver loaded"),
    RETIRED_PAGES_PENDING(UsageField.RETIRED_PAGES_PENDING, "DCGM_FI_DEV_RETIRED_PENDING", false,
            "memory pages wait to be retired at the next reset");

    private final UsageField field;
    private final String metric;
    private final boolean volatileCount;
    private final String meaning;

    HealthSignal(UsageField field, String metric, boolean volatileCount, String meaning) {
        this.field = field;
        this.metric = metric;
        this.volatileCount = volatileCount;
        this.meaning = meaning;
    }

    /** The signal a usage field carries, or null when the field is no health signal. */
    public static HealthSignal of(UsageField field) {
        for (HealthSignal s : values()) {
            if (s.field == field) {
                return s;
            }
        }
        return null;
    }

    /**
     * Whether going from {@code before} (null: never read) to {@code value} is a fresh report of trouble: turning
     * bad, or a higher count. A volatile count that drops but stays above 0 was reset and counted new errors since.
     */
    boolean worsened(Long before, long value) {
        if (value <= 0) {
            return false;
        }
        if (before == null || before <= 0 || value > before) {
            return true;
        }
        return volatileCount && value < before;
    }

    /** The exporter's (pre-4.x) name of the series, as the evidence names it. */
    String metric() {
        return metric;
    }

    String meaning() {
        return meaning;
    }
}
