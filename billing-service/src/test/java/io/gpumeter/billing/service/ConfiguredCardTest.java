package io.gpumeter.billing.service;

import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.EnergyTerms;
import io.gpumeter.billing.domain.RateCard;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ConfiguredCardTest {

    private record Cluster(Optional<BigDecimal> energyPricePerKWh, Optional<BigDecimal> gramsCo2ePerKWh)
            implements BillingConfig.ClusterEnergy {
    }

    private record Card(String version, BigDecimal defaultRate, Map<String, BigDecimal> models,
                        Optional<BigDecimal> energyPricePerKWh, Optional<BigDecimal> gramsCo2ePerKWh,
                        Map<String, BillingConfig.ClusterEnergy> clusters) implements BillingConfig.RateCard {
    }

    @Test
    void theConfiguredCardPricesEnergyPerClusterWithItsOwnFiguresForTheRest() {
        RateCard card = ConfiguredCard.of(new Card("cfg-1", new BigDecimal("2.00"), Map.of(),
                Optional.of(new BigDecimal("0.18")), Optional.empty(),
                Map.of("eu-1", new Cluster(Optional.empty(), Optional.of(new BigDecimal("320"))))));
        assertEquals(new EnergyTerms(new BigDecimal("0.18"), new BigDecimal("320")), card.energyFor("eu-1"));
        assertEquals(new EnergyTerms(new BigDecimal("0.18"), null), card.energyFor("us-2"));
    }

    @Test
    void aNegativeConfiguredEnergyFigureStopsTheService() {
        assertThrows(IllegalArgumentException.class, () -> ConfiguredCard.of(new Card("cfg-1", BigDecimal.ONE,
                Map.of(), Optional.empty(), Optional.empty(),
                Map.of("eu-1", new Cluster(Optional.of(new BigDecimal("-0.1")), Optional.empty())))));
    }
}
