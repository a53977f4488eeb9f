package io.gpumeter.billing.service;

import io.gpumeter.billing.domain.EnergyTerms;
import io.gpumeter.billing.domain.RateCard;
import io.gpumeter.billing.repository.StoredRateCard;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A stored card's energy terms are kept as two maps of the same shape as its model prices (a price per kWh and grams
 * CO2e per kWh, each by cluster), so one JSON mapping serves all three; this turns them into terms and back.
 */
public final class StoredCards {

    private StoredCards() {
    }

    /** A stored card as reports price with it. */
    static RateCard card(StoredRateCard s) {
        return new RateCard(s.version, s.defaultRate, s.models == null ? Map.of() : s.models,
                new EnergyTerms(s.energyPricePerKWh, s.gramsCo2ePerKWh), clusterEnergy(s));
    }

    /** The card's clusters with their own terms; a cluster may have one figure only. */
    public static Map<String, EnergyTerms> clusterEnergy(StoredRateCard s) {
        Map<String, BigDecimal> prices = s.clusterEnergyPrices == null ? Map.of() : s.clusterEnergyPrices;
        Map<String, BigDecimal> grams = s.clusterGramsCo2e == null ? Map.of() : s.clusterGramsCo2e;
        Set<String> names = new TreeSet<>(prices.keySet());
        names.addAll(grams.keySet());
        Map<String, EnergyTerms> out = new TreeMap<>();
        names.forEach(n -> out.put(n, new EnergyTerms(prices.get(n), grams.get(n))));
        return out;
    }

    /** Writes the card's own energy terms and its clusters' into {@code s}. */
    static void setEnergy(StoredRateCard s, EnergyTerms own, Map<String, EnergyTerms> clusters) {
        s.energyPricePerKWh = own.pricePerKWh();
        s.gramsCo2ePerKWh = own.gramsCo2ePerKWh();
        s.clusterEnergyPrices = figures(clusters, EnergyTerms::pricePerKWh);
        s.clusterGramsCo2e = figures(clusters, EnergyTerms::gramsCo2ePerKWh);
    }

    /** One figure of every cluster that has it. */
    private static Map<String, BigDecimal> figures(Map<String, EnergyTerms> clusters,
                                                   Function<EnergyTerms, BigDecimal> figure) {
        Map<String, BigDecimal> out = new TreeMap<>();
        clusters.forEach((name, terms) -> {
            if (figure.apply(terms) != null) {
                out.put(name, figure.apply(terms));
            }
        });
        return out;
    }
}
