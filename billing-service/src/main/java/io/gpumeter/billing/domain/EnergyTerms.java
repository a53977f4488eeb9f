package io.gpumeter.billing.domain;

import java.math.BigDecimal;

/**
 * What a rate card says about the energy of one cluster's cards: its price per kWh and the grams of CO2e one kWh
 * emits there. Either may be absent: a report then prints no energy cost, or no CO2e, for those kWh.
 */
public record EnergyTerms(BigDecimal pricePerKWh, BigDecimal gramsCo2ePerKWh) {

    /** Neither a price nor an emission factor. */
    public static final EnergyTerms NONE = new EnergyTerms(null, null);

    /** @throws IllegalArgumentException on a negative figure */
    public EnergyTerms {
        nonNegative("energyPricePerKWh", pricePerKWh);
        nonNegative("gramsCo2ePerKWh", gramsCo2ePerKWh);
    }

    public boolean isEmpty() {
        return pricePerKWh == null && gramsCo2ePerKWh == null;
    }

    /** These terms, each figure they lack taken from {@code fallback}. */
    public EnergyTerms orElse(EnergyTerms fallback) {
        return new EnergyTerms(pricePerKWh != null ? pricePerKWh : fallback.pricePerKWh,
                gramsCo2ePerKWh != null ? gramsCo2ePerKWh : fallback.gramsCo2ePerKWh);
    }

    private static void nonNegative(String what, BigDecimal figure) {
        if (figure != null && figure.signum() < 0) {
            throw new IllegalArgumentException(what + " must not be negative, got " + figure.toPlainString());
        }
    }
}
