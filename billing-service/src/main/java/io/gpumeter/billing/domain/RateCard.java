package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Prices per normalized GPU-hour by GPU model, with a default for models the card does not list; and, optionally,
 * energy terms (a price per kWh, grams CO2e per kWh) per cluster, with the card's own for clusters it does not list.
 */
public final class RateCard {

    private final String version;
    private final BigDecimal defaultRate;
    private final Map<String, BigDecimal> byModel;
    private final EnergyTerms energy;
    private final Map<String, EnergyTerms> byCluster;

    /** A card with no energy terms. */
    public RateCard(String version, BigDecimal defaultRate, Map<String, BigDecimal> modelRates) {
        this(version, defaultRate, modelRates, EnergyTerms.NONE, Map.of());
    }

    /**
     * @param energy       the energy terms of clusters {@code clusterEnergy} does not list
     * @param clusterEnergy energy terms by cluster name; a figure a cluster's entry lacks is the card's own
     * @throws IllegalArgumentException on a negative rate, two spellings of one model with different rates, or a
     *                                  blank or repeated cluster name
     */
    public RateCard(String version, BigDecimal defaultRate, Map<String, BigDecimal> modelRates, EnergyTerms energy,
                    Map<String, EnergyTerms> clusterEnergy) {
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
        this.energy = Objects.requireNonNull(energy, "energy");
        Map<String, EnergyTerms> clusters = new TreeMap<>();
        clusterEnergy.forEach((cluster, terms) -> {
            if (cluster == null || cluster.isBlank()) {
                throw new IllegalArgumentException("the rate card names a cluster without a name");
            }
            if (clusters.put(cluster.strip(), Objects.requireNonNull(terms, "terms of " + cluster)) != null) {
                throw new IllegalArgumentException("the rate card lists cluster '" + cluster.strip() + "' twice");
            }
        });
        this.byCluster = Map.copyOf(clusters);
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

    /** The energy terms of clusters the card does not list. */
    public EnergyTerms energy() {
        return energy;
    }

    /** The listed clusters' own energy terms, by name, sorted. */
    public Map<String, EnergyTerms> clusterEnergy() {
        return new TreeMap<>(byCluster);
    }

    /** The terms the energy of {@code cluster}'s cards is priced with (null: a cluster the ledger does not know). */
    public EnergyTerms energyFor(String cluster) {
        EnergyTerms own = cluster == null ? null : byCluster.get(cluster.strip());
        return own == null ? energy : own.orElse(energy);
    }

    /** Whether energy is priced differently per cluster, so the ledger must be asked by cluster. */
    public boolean pricesEnergyByCluster() {
        return !byCluster.isEmpty();
    }

    private static BigDecimal nonNegative(String what, BigDecimal rate) {
        if (rate.signum() < 0) {
            throw new IllegalArgumentException("the " + what + " must not be negative, got " + rate.toPlainString());
        }
        return rate;
    }
}
