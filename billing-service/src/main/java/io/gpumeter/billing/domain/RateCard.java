package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Prices per normalized GPU-hour by GPU model, with a default for models the card does not list.
 */
public final class RateCard {

    private final String version;
    private final BigDecimal defaultRate;
    private final Map<String, BigDecimal> byModel;

    /**
     * @throws IllegalArgumentException on a negative rate, or two spellings of one model with different rates
     */
    public RateCard(String version, BigDecimal defaultRate, Map<String, BigDecimal> modelRates) {
        if (version == null || version.isBlank()) {
            throw new IllegalArgumentException("the rate card needs a version");
        }
        this.version = version.strip();
        this.defaultRate = nonNegative("default rate", Objects.requireNonNull(defaultRate, "default rate"));
        Map<String, BigDecimal> rates = new TreeMap<>();
        modelRates.forEach((model, rate) -> {
            BigDecimal checked = nonNegative("rate of " + model, Objects.requireNonNull(rate, "rate of " + model));
            BigDecimal earlier = rates.putIfAbsent(ModelName.normalise(model), checked);
            if (earlier != null && earlier.compareTo(checked) != 0) {
                throw new IllegalArgumentException("the rate card prices model '" + model
                        + "' twice under different spellings: " + earlier.toPlainString() + " and "
                        + checked.toPlainString());
            }
        });
        this.byModel = Map.copyOf(rates);
    }

    public String version() {
        return version;
    }

    public BigDecimal defaultRate() {
        return defaultRate;
    }

    /** The listed prices by normalised model name (see {@link ModelName#normalise}), sorted. */
    public Map<String, BigDecimal> modelRates() {
        return new TreeMap<>(byModel);
    }

    /** The price of one normalized GPU-hour on this model; the default rate when the card does not list it. */
    public BigDecimal rateFor(String model) {
        return byModel.getOrDefault(ModelName.normalise(model), defaultRate);
    }

    private static BigDecimal nonNegative(String what, BigDecimal rate) {
        if (rate.signum() < 0) {
            throw new IllegalArgumentException("the " + what + " must not be negative, got " + rate.toPlainString());
        }
        return rate;
    }
}
