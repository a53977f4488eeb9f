package io.gpumeter.billing.domain;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FineLinesTest {

    private static final FineKey A = new FineKey("acme", "vision", "p1", "ns-a", "NVIDIA-H100-80GB-HBM3");
    private static final FineKey B = new FineKey("beta", "vision", "p2", "ns-b", null);

    private static FineLine line(int stretch, FineKey key, String allocated, String used) {
        return new FineLine(stretch, key, new BigDecimal(allocated), new BigDecimal(used));
    }

    @Test
    void theDifferenceKeepsOnlyWhatChangedAndGoesNegativeForWhatVanished() {
        List<FineLine> billed = List.of(line(0, A, "10", "4"), line(1, A, "5", "5"), line(0, B, "2", "0"));
        List<FineLine> now = List.of(line(0, A, "10.000", "4.0"), line(1, A, "6", "5"), line(1, B, "1", "1"));
        List<FineLine> delta = FineLines.difference(now, billed);
        // A in stretch 0 is unchanged (10.000 equals 10): no line. B moved from stretch 0 to stretch 1.
        assertEquals(3, delta.size(), delta.toString());
        assertEquals(0, new BigDecimal("1").compareTo(find(delta, 1, A).allocatedHours()));
        assertEquals(0, BigDecimal.ZERO.compareTo(find(delta, 1, A).usedHours()));
        assertEquals(0, new BigDecimal("1").compareTo(find(delta, 1, B).allocatedHours()));
        assertEquals(0, new BigDecimal("-2").compareTo(find(delta, 0, B).allocatedHours()));
    }

    @Test
    void linesArePricedWithTheCardOfTheirStretchAndFilteredByTenant() {
        BillingPeriod period = BillingPeriod.of(YearMonth.of(2025, 10), ZoneOffset.UTC);
        Instant change = Instant.parse("2025-10-16T00:00:00Z");
        List<RateCardTimeline.Stretch> stretches = List.of(
                new RateCardTimeline.Stretch(period.startInstant(), change,
                        new RateCard("a", new BigDecimal("1.00"), Map.of("NVIDIA-H100-80GB-HBM3", new BigDecimal("4.00")))),
                new RateCardTimeline.Stretch(change, period.endInstant(),
                        new RateCard("b", new BigDecimal("2.00"), Map.of("NVIDIA-H100-80GB-HBM3", new BigDecimal("5.00")))));
        CostCalculator.Terms terms = new CostCalculator.Terms(period, GroupBy.TEAM, "USD", Normalization.UNKNOWN);
        List<FineLine> lines = List.of(line(0, A, "2", "1"), line(1, A, "1", "0"), line(1, B, "3", "0"));
        // vision = acme 2 h x 4.00 + 1 h x 5.00 + beta (unknown model) 3 h x 2.00 = 19.00 over 6 h.
        ReportRow all = FineLines.price(terms, stretches, lines, ReportScope.ALL, false).get(0);
        assertEquals(new BigDecimal("6.000000"), all.allocatedGpuHours());
        assertEquals(new BigDecimal("19.00"), all.allocatedCost());
        assertEquals("a;b", all.rateCardVersion());
        // acme alone: 8 + 5 = 13.00 over 3 h.
        ReportRow acme = FineLines.price(terms, stretches, lines, ReportScope.parse("acme"), false).get(0);
        assertEquals(new BigDecimal("13.00"), acme.allocatedCost());
        assertEquals(new BigDecimal("4.00"), acme.usedCostShowback());
        // Per model: vision on the H100 (acme's 13.00 over 3 h) and vision on an unknown model (3 h x 2.00).
        List<ReportRow> byModel = FineLines.price(terms, stretches, lines, ReportScope.ALL, true);
        assertEquals(List.of("NVIDIA-H100-80GB-HBM3", "unknown"), byModel.stream().map(ReportRow::gpuModels).toList());
        assertEquals(new BigDecimal("13.00"), byModel.get(0).allocatedCost());
        assertEquals(new BigDecimal("4.333333"), byModel.get(0).rate());
        assertEquals(new BigDecimal("6.00"), byModel.get(1).allocatedCost());
    }

    private static FineLine find(List<FineLine> lines, int stretch, FineKey key) {
        return lines.stream().filter(l -> l.stretch() == stretch && l.key().equals(key)).findFirst().orElseThrow();
    }
}
