package io.gpumeter.billing.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RateCardTest {

    private final RateCard card = new RateCard("v3", new BigDecimal("1.50"), Map.of(
            "NVIDIA-H100-80GB-HBM3", new BigDecimal("4.10"),
            "nvidia_a100_sxm4_40gb", new BigDecimal("2.25")));

    @ParameterizedTest(name = "{0}: [{1}] -> {2}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "exact key             | NVIDIA-H100-80GB-HBM3  | 4.10",
            "spaces                | NVIDIA H100 80GB HBM3  | 4.10",
            "snake, lower case     | nvidia_h100_80gb_hbm3  | 4.10",
            "key written in snake  | NVIDIA A100-SXM4-40GB  | 2.25",
            "other A100 variant    | NVIDIA-A100-SXM4-80GB  | 1.50",
            "not on the card       | NVIDIA-L4              | 1.50",
            "unknown model         | NULL                   | 1.50",
            "prefix is not a match | NVIDIA-H100            | 1.50",
    })
    void rateFor(String caseName, String model, String expected) {
        assertEquals(new BigDecimal(expected), card.rateFor(model));
    }

    @Test
    void twoSpellingsOfOneModelWithOneRateAreFine() {
        Map<String, BigDecimal> rates = new LinkedHashMap<>();
        rates.put("NVIDIA-L4", new BigDecimal("0.80"));
        rates.put("nvidia_l4", new BigDecimal("0.800"));
        assertEquals(new BigDecimal("0.80"), new RateCard("v", BigDecimal.ONE, rates).rateFor("NVIDIA L4"));
    }

    @Test
    void twoSpellingsOfOneModelWithDifferentRatesAreRejected() {
        Map<String, BigDecimal> rates = new LinkedHashMap<>();
        rates.put("NVIDIA-L4", new BigDecimal("0.80"));
        rates.put("nvidia l4", new BigDecimal("0.90"));
        var e = assertThrows(IllegalArgumentException.class, () -> new RateCard("v", BigDecimal.ONE, rates));
        assertTrue(e.getMessage().contains("0.80") && e.getMessage().contains("0.90"), e.getMessage());
    }

    @Test
    void negativeRatesAndMissingVersionsAreRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> new RateCard("v", new BigDecimal("-0.01"), Map.of()));
        assertThrows(IllegalArgumentException.class,
                () -> new RateCard("v", BigDecimal.ONE, Map.of("NVIDIA-L4", new BigDecimal("-1"))));
        assertThrows(IllegalArgumentException.class, () -> new RateCard(" ", BigDecimal.ONE, Map.of()));
    }
}
