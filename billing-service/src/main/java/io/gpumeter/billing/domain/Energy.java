package io.gpumeter.billing.domain;

import java.math.BigDecimal;

/**
 * A report line's energy as printed: the kWh its cards drew for it, and where the rate cards say so, what that
 * energy cost and the kilograms of CO2e it emitted (null when no card priced any of those kWh). Showback beside the
 * GPU-hour cost: the invoice stays allocated GPU-hours at their rates.
 */
public record Energy(BigDecimal kWh, BigDecimal cost, BigDecimal co2eKg) {

    /** kWh print with 6 decimals (a milliwatt-hour), CO2e with 3 (a gram); cost as money. */
    public static final int KWH_SCALE = 6;
    public static final int CO2E_SCALE = 3;

    /** No energy, and nothing priced. */
    public static final Energy NONE = new Energy(BigDecimal.ZERO.setScale(KWH_SCALE), null, null);

    public Energy {
        java.util.Objects.requireNonNull(kWh, "kWh");
    }
}
