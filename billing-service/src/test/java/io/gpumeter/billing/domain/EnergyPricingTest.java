package io.gpumeter.billing.domain;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Energy on report lines: kWh summed, priced and counted per stretch and cluster with each card's terms. */
class EnergyPricingTest {

    private static final String H100 = "NVIDIA-H100-80GB-HBM3";
    private static final BillingPeriod MAY = BillingPeriod.of(YearMonth.of(2026, 5), ZoneOffset.UTC);
    private static final CostCalculator.Terms TERMS = new CostCalculator.Terms(MAY, GroupBy.TENANT, "EUR",
            Normalization.UNKNOWN);

    private static EnergyTerms terms(String price, String grams) {
        return new EnergyTerms(price == null ? null : new BigDecimal(price), grams == null ? null : new BigDecimal(grams));
    }

    private static UsageLine line(String group, String cluster, String hours, String kWh) {
        return new UsageLine(group, H100, cluster, new BigDecimal(hours), BigDecimal.ZERO, new BigDecimal(kWh));
    }

    @Test
    void aClusterEntryTakesEachFigureItLacksFromTheCard() {
        RateCard card = new RateCard("e", BigDecimal.ONE, Map.of(), terms("0.20", "400"),
                Map.of("eu-1", terms("0.30", null), " us-2 ", terms(null, "350")));
        assertEquals(terms("0.30", "400"), card.energyFor("eu-1"));
        assertEquals(terms("0.20", "350"), card.energyFor("us-2"), "names are compared stripped");
        assertEquals(terms("0.20", "400"), card.energyFor("lab"), "an unlisted cluster has the card's own terms");
        assertEquals(terms("0.20", "400"), card.energyFor(null));
        assertTrue(card.pricesEnergyByCluster());
        assertTrue(new RateCard("plain", BigDecimal.ONE, Map.of()).energyFor("eu-1").isEmpty());
    }

    @Test
    void badEnergyTermsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> terms("-0.01", null));
        assertThrows(IllegalArgumentException.class, () -> terms(null, "-1"));
        assertThrows(IllegalArgumentException.class, () -> new RateCard("e", BigDecimal.ONE, Map.of(),
                EnergyTerms.NONE, Map.of(" ", terms("1", null))));
        assertThrows(IllegalArgumentException.class, () -> new RateCard("e", BigDecimal.ONE, Map.of(),
                EnergyTerms.NONE, Map.of("eu-1", terms("1", null), "eu-1 ", terms("2", null))));
    }

    @Test
    void aPriceChangeMidMonthPricesEachStretchsKilowattHoursWithItsCard() {
        // 1-16 May: card a, 0.20 per kWh and 400 g/kWh everywhere. From the 16th: card b, 0.25 per kWh in eu-1
        // (400 g/kWh from the card's own), 0.10 per kWh and 50 g/kWh elsewhere.
        RateCard a = new RateCard("a", new BigDecimal("2.00"), Map.of(), terms("0.20", "400"), Map.of());
        RateCard b = new RateCard("b", new BigDecimal("2.00"), Map.of(), terms("0.10", "50"),
                Map.of("eu-1", terms("0.25", "400")));
        // acme: 123.4567891 kWh before (123.4567891 x 0.20 = 24.69135782; x 400 g = 49.38271564 kg),
        //       eu-1 after 10 kWh (2.50; 4 kg), lab after 20 kWh (2.00; 1 kg).
        //       kWh 153.4567891 -> 153.456789; cost 29.19135782 -> 29.19; CO2e 54.38271564 kg -> 54.383.
        CostReport report = CostCalculator.price(TERMS, List.of(
                new CostCalculator.Piece(a, List.of(line("acme", null, "10", "123.4567891"))),
                new CostCalculator.Piece(b, List.of(line("acme", "eu-1", "4", "10"), line("acme", "lab", "6", "20")))));
        Energy acme = report.rows().get(0).energy();
        assertEquals(new BigDecimal("153.456789"), acme.kWh());
        assertEquals(new BigDecimal("29.19"), acme.cost());
        assertEquals(new BigDecimal("54.383"), acme.co2eKg());
        // The hours are priced as ever: 20 h x 2.00.
        assertEquals(new BigDecimal("40.00"), report.rows().get(0).allocatedCost());
    }

    @Test
    void kilowattHoursNoCardPricesPrintNoCostRatherThanZero() {
        RateCard plain = new RateCard("p", BigDecimal.ONE, Map.of());
        RateCard gramsOnly = new RateCard("g", BigDecimal.ONE, Map.of(), terms(null, "300"), Map.of());
        Energy unpriced = CostCalculator.price(TERMS, plain, List.of(line("acme", null, "1", "2.5"))).rows().get(0).energy();
        assertEquals(new BigDecimal("2.500000"), unpriced.kWh());
        assertNull(unpriced.cost());
        assertNull(unpriced.co2eKg());
        // Before the change nothing is priced; after it only CO2e is counted: 1.5 kWh x 300 g = 0.450 kg.
        Energy half = CostCalculator.price(TERMS, List.of(
                new CostCalculator.Piece(plain, List.of(line("acme", null, "1", "2.5"))),
                new CostCalculator.Piece(gramsOnly, List.of(line("acme", null, "1", "1.5"))))).rows().get(0).energy();
        assertEquals(new BigDecimal("4.000000"), half.kWh());
        assertNull(half.cost());
        assertEquals(new BigDecimal("0.450"), half.co2eKg());
    }

    @Test
    void theCardsIdleEnergyIsPricedPerStretchAndCluster() {
        Instant change = Instant.parse("2026-05-16T00:00:00Z");
        List<RateCardTimeline.Stretch> stretches = List.of(
                new RateCardTimeline.Stretch(MAY.startInstant(), change,
                        new RateCard("a", BigDecimal.ONE, Map.of(), terms("0.20", null), Map.of())),
                new RateCardTimeline.Stretch(change, MAY.endInstant(),
                        new RateCard("b", BigDecimal.ONE, Map.of(), terms("0.10", null), Map.of("eu-1", terms("0.30", "200")))));
        // 100 kWh x 0.20 + 50 kWh in eu-1 x 0.30 + 10 kWh in lab x 0.10 = 20 + 15 + 1 = 36.00; CO2e only eu-1's 10 kg.
        Energy idle = EnergySum.idle(stretches, List.of(new IdleEnergy(0, "eu-1", new BigDecimal("100")),
                new IdleEnergy(1, "eu-1", new BigDecimal("50")), new IdleEnergy(1, "lab", new BigDecimal("10"))));
        assertEquals(new Energy(new BigDecimal("160.000000"), new BigDecimal("36.00"), new BigDecimal("10.000")), idle);
    }

    @Test
    void anEnergyOnlyCorrectionIsADifferenceAndPrints() {
        FineKey key = new FineKey("acme", "vision", "p1", "ns-a", H100, "eu-1");
        List<FineLine> billed = List.of(new FineLine(0, key, BigDecimal.TEN, BigDecimal.ONE, new BigDecimal("5")));
        List<FineLine> now = List.of(new FineLine(0, key, BigDecimal.TEN, BigDecimal.ONE, new BigDecimal("7.25")));
        List<FineLine> delta = FineLines.difference(now, billed);
        assertEquals(1, delta.size());
        assertEquals(0, new BigDecimal("2.25").compareTo(delta.get(0).energyKWh()));
        assertEquals(0, delta.get(0).allocatedHours().signum());
        RateCardTimeline.Stretch whole = new RateCardTimeline.Stretch(MAY.startInstant(), MAY.endInstant(),
                new RateCard("a", BigDecimal.ONE, Map.of(), EnergyTerms.NONE, Map.of("eu-1", terms("0.40", null))));
        ReportRow row = FineLines.price(TERMS, List.of(whole), delta, ReportScope.ALL, false).get(0);
        assertEquals(new Energy(new BigDecimal("2.250000"), new BigDecimal("0.90"), null), row.energy());
        assertTrue(!row.printsAsZero(), "a line with only energy says something");
        assertTrue(FineLines.difference(now, now).isEmpty());
    }
}
