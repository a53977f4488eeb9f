package io.gpumeter.billing.domain;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReconciliationTest {

    private static final BillingPeriod MAY = BillingPeriod.of(YearMonth.of(2026, 5), ZoneOffset.UTC);
    private static final List<RateCardTimeline.Stretch> ONE_CARD = List.of(new RateCardTimeline.Stretch(
            MAY.startInstant(), MAY.endInstant(), new RateCard("c", new BigDecimal("1.00"), Map.of())));
    private static final CostCalculator.Terms TERMS = new CostCalculator.Terms(MAY, GroupBy.TEAM, "USD",
            Normalization.UNKNOWN);

    private static ReportRow usage(String team, String hours, String cost) {
        return new ReportRow("s", "e", team, "m", new BigDecimal(hours), new BigDecimal("1.000000"), "USD",
                new BigDecimal(cost), "c", "p", "n", new BigDecimal("0.000000"), new BigDecimal(hours),
                new BigDecimal("0.00"), new BigDecimal(cost));
    }

    @Test
    void whatRoundingLeavesStaysOnTheUnallocatedLine() {
        // Capacity 4 card-hours at 1.00 = 4.00; three teams of 1.00 each leave 1.00 unallocated. Each bears
        // 1.00 x 1.00 / 3.00 = 0.333... -> 0.33; 0.99 shared, 0.01 stays on the unallocated line.
        List<ReportRow> rows = List.of(usage("a", "1.000000", "1.00"), usage("b", "1.000000", "1.00"),
                usage("c", "1.000000", "1.00"));
        Reconciliation r = Reconciliation.of(Share.PROPORTIONAL, "USD", ONE_CARD,
                List.of(new CapacityLine(0, "NVIDIA-L4", new BigDecimal("4"))), rows);
        assertEquals(new BigDecimal("4.00"), r.capacityCost());
        assertEquals(new BigDecimal("1.00"), r.unallocatedCost());
        assertEquals(new BigDecimal("0.99"), r.sharedCost());
        assertEquals(new BigDecimal("0.01"), r.unsharedCost());
        Energy idle = new Energy(new BigDecimal("12.500000"), new BigDecimal("3.75"), null);
        List<ReportRow> out = r.apply(rows, TERMS, true, idle);
        assertEquals(4, out.size());
        assertEquals(new BigDecimal("1.33"), out.get(0).totalCost());
        ReportRow unallocated = out.get(3);
        assertEquals(LineType.UNALLOCATED.label(), unallocated.lineType());
        assertEquals(new BigDecimal("-0.99"), unallocated.unallocatedShareCost());
        assertEquals(new BigDecimal("0.01"), unallocated.totalCost());
        assertEquals(idle, unallocated.energy(), "the cards' idle energy is the unallocated line's");
        BigDecimal total = out.stream().map(ReportRow::totalCost).reduce(BigDecimal.ZERO, BigDecimal::add);
        assertEquals(new BigDecimal("4.00"), total);
        assertTrue(r.reconciles());
    }

    @Test
    void anOverallocatedFleetSharesNothingAndSaysSo() {
        // Grants of 5 card-hours on a fleet that could supply 4: unallocated -1.00, nothing to share.
        List<ReportRow> rows = List.of(usage("a", "5.000000", "5.00"));
        Reconciliation r = Reconciliation.of(Share.PROPORTIONAL, "USD", ONE_CARD,
                List.of(new CapacityLine(0, null, new BigDecimal("4"))), rows);
        assertEquals(new BigDecimal("-1.00"), r.unallocatedCost());
        assertEquals(new BigDecimal("-1.000000"), r.unallocatedGpuHours());
        assertEquals(new BigDecimal("0.00"), r.sharedCost());
        List<ReportRow> out = r.apply(rows, TERMS, false, Energy.NONE);
        assertEquals(1, out.size(), "a view of one tenant has no unallocated line");
        assertEquals(new BigDecimal("5.00"), out.get(0).totalCost());
    }
}
