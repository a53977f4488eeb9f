package io.gpumeter.billing.service;

import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.EnergyTerms;
import io.gpumeter.billing.domain.RateCard;

import java.util.Map;
import java.util.TreeMap;

/** The rate card of the configuration (gpumeter.billing.rate-card.*), in force before any stored card. */
final class ConfiguredCard {

    private ConfiguredCard() {
    }

    /** @throws IllegalArgumentException on a negative figure or two spellings of one model at different prices */
    static RateCard of(BillingConfig.RateCard config) {
        Map<String, EnergyTerms> clusters = new TreeMap<>();
        config.clusters().forEach((name, c) -> clusters.put(name,
                new EnergyTerms(c.energyPricePerKWh().orElse(null), c.gramsCo2ePerKWh().orElse(null))));
        return new RateCard(config.version(), config.defaultRate(), config.models(),
                new EnergyTerms(config.energyPricePerKWh().orElse(null), config.gramsCo2ePerKWh().orElse(null)),
                clusters);
    }
}
