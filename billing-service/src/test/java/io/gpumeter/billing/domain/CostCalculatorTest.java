package io.gpumeter.billing.domain;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CostCalculatorTest {

    private static final RateCard CARD = new RateCard("rc-9", new BigDecimal("1.50"), Map.of(
            "NVIDIA-H100-80GB-HBM3", new BigDecimal("4.10"),
            "nvidia_l40s", new BigDecimal("1.10"),
            "NVIDIA-A10", new BigDecimal("0.333333333")));
    private static final CostCalculator.Terms TERMS = new CostCalculator.Terms(
            BillingPeriod.of(YearMonth.of(2026, 3), ZoneOffset.UTC), GroupBy.TENANT, "EUR",
            new Normalization("whole card = 1", "n-1"));

    private static UsageLine line(String group, String model, String hours) {
        return new UsageLine(group, model, new BigDecimal(hours));
    }

    private static ReportRow only(List<UsageLine> usage) {
        List<ReportRow> rows = CostCalculator.price(TERMS, CARD, usage).rows();
        assertEquals(1, rows.size(), rows.toString());
        return rows.get(0);
    }

    @Test
    void oneModelPrintsItsRateAndRoundsOnlyThePrintedFigures() {
        // 12.3456785 h x 4.10 = 50.61728185 -> 50.62; hours 12.3456785 -> 12.345678 (half-even keeps the 8)
        ReportRow row = only(List.of(line("acme", "NVIDIA-H100-80GB-HBM3", "12.3456785")));
        assertEquals("12.345678", row.allocatedGpuHours().toPlainString());
        assertEquals("4.100000", row.rate().toPlainString());
        assertEquals("50.62", row.allocatedCost().toPlainString());
        assertEquals("NVIDIA-H100-80GB-HBM3", row.gpuModels());
        assertEquals("EUR", row.currency());
        assertEquals("rc-9", row.rateCardVersion());
        assertEquals("2026-03-01T00:00:00Z", row.periodStart());
        assertEquals("2026-04-01T00:00:00Z", row.periodEnd());
        assertEquals("whole card = 1", row.normalizationPolicy());
        assertEquals("n-1", row.normalizationVersion());
    }

    @Test
    void costIsRoundedHalfEvenOnce() {
        // 1.75 h x 1.50 = 2.625 -> 2.62 (half-up would give 2.63)
        assertEquals("2.62", only(List.of(line("t", "NVIDIA-L4", "1.75"))).allocatedCost().toPlainString());
        // 1.25 h x 1.50 = 1.875 -> 1.88
        assertEquals("1.88", only(List.of(line("t", "NVIDIA-L4", "1.25"))).allocatedCost().toPlainString());
    }

    @Test
    void perModelCostsAreSummedBeforeRounding() {
        // 100 h of A10 at 0.333333333 = 33.3333333, 100 h of L40S at 1.10 = 110 -> 143.3333333 -> 143.33;
        // the effective rate comes from the unrounded cost: 143.3333333 / 200 = 0.7166666665 -> 0.716667.
        ReportRow row = only(List.of(line("t", "NVIDIA-A10", "100"), line("t", "NVIDIA L40S", "100")));
        assertEquals("143.33", row.allocatedCost().toPlainString());
        assertEquals("0.716667", row.rate().toPlainString());
        assertEquals("200.000000", row.allocatedGpuHours().toPlainString());
        assertEquals("NVIDIA L40S;NVIDIA-A10", row.gpuModels());

        // 0.005 h on each of three models at 1: rounding per model (half-even) would bill 0.00 + 0.00 + 0.00;
        // summing first bills 0.015 -> 0.02.
        RateCard ones = new RateCard("1", BigDecimal.ONE, Map.of());
        CostCalculator.Terms terms = new CostCalculator.Terms(TERMS.period(), GroupBy.TEAM, "USD",
                Normalization.UNKNOWN);
        ReportRow tiny = CostCalculator.price(terms, ones, List.of(
                line("t", "a", "0.005"), line("t", "b", "0.005"), line("t", "c", "0.005"))).rows().get(0);
        assertEquals("0.02", tiny.allocatedCost().toPlainString());
        assertEquals("unknown", tiny.normalizationPolicy());
    }

    @Test
    void spellingsOfOneModelAreOneModel() {
        ReportRow row = only(List.of(
                line("g", "nvidia_h100_80gb_hbm3", "2"),
                line("g", "NVIDIA H100 80GB HBM3", "0.5"),
                line("g", "NVIDIA-H100-80GB-HBM3", "0.5")));
        assertEquals("NVIDIA H100 80GB HBM3", row.gpuModels(), "the smallest spelling is printed");
        assertEquals("4.100000", row.rate().toPlainString());
        assertEquals("12.30", row.allocatedCost().toPlainString());
    }

    @Test
    void unknownModelsUseTheDefaultRate() {
        ReportRow row = only(List.of(line("b", null, "1"), line("b", "", "0.5"), line("b", "unknown", "0.5")));
        assertEquals("unknown", row.gpuModels());
        assertEquals("1.500000", row.rate().toPlainString());
        assertEquals("3.00", row.allocatedCost().toPlainString());
    }

    @Test
    void rowsAreSortedByGroupWhateverTheLedgerOrder() {
        List<UsageLine> usage = new ArrayList<>(List.of(
                line("zeta", "NVIDIA-L4", "1"), line("acme", "NVIDIA-L4", "1"), line(null, "NVIDIA-L4", "1"),
                line("Beta", "NVIDIA-L4", "1"), line("acme", "NVIDIA-A10", "1")));
        List<String> expected = List.of("(unassigned)", "Beta", "acme", "zeta");
        for (int i = 0; i < 5; i++) {
            Collections.rotate(usage, 1);
            CostReport report = CostCalculator.price(TERMS, CARD, usage);
            assertEquals(expected, report.rows().stream().map(ReportRow::group).toList());
            assertEquals("NVIDIA-A10;NVIDIA-L4", report.rows().get(2).gpuModels());
        }
    }

    @Test
    void usedAndIdleArePricedPerModelAndAddUpToTheAllocatedFigures() {
        // H100: 10 h allocated, 2.345 h used x 4.10 = 9.6145; A10: 3 h, 1.5 h used x 0.333333333 = 0.4999999995.
        // Used cost 10.1144999995 -> 10.11; allocated 41 + 0.999999999 = 41.999999999 -> 42.00; idle 31.89.
        // Used hours 3.845 -> 3.845000; idle 13.000000 - 3.845000 = 9.155000.
        ReportRow row = only(List.of(
                new UsageLine("t", "NVIDIA-H100-80GB-HBM3", new BigDecimal("10"), new BigDecimal("2.345")),
                new UsageLine("t", "NVIDIA-A10", new BigDecimal("3"), new BigDecimal("1.5"))));
        assertEquals("42.00", row.allocatedCost().toPlainString());
        assertEquals("3.845000", row.usedGpuHoursShowback().toPlainString());
        assertEquals("9.155000", row.idleGpuHoursShowback().toPlainString());
        assertEquals("10.11", row.usedCostShowback().toPlainString());
        assertEquals("31.89", row.idleCostShowback().toPlainString());
    }

    @Test
    void idleIsThePrintedRemainderSoRowsAlwaysReconcile() {
        // 1 h at 1.50 allocated = 1.50; used 0.333333333 h x 1.50 = 0.4999999995 -> 0.50; idle 1.50 - 0.50 = 1.00.
        // Hours: used 0.333333333 -> 0.333333, idle 1.000000 - 0.333333 = 0.666667.
        ReportRow row = only(List.of(new UsageLine("t", "x", BigDecimal.ONE, new BigDecimal("0.333333333"))));
        assertEquals("0.333333", row.usedGpuHoursShowback().toPlainString());
        assertEquals("0.666667", row.idleGpuHoursShowback().toPlainString());
        assertEquals("0.50", row.usedCostShowback().toPlainString());
        assertEquals("1.00", row.idleCostShowback().toPlainString());
        // Nothing measured: everything is idle.
        ReportRow unmeasured = only(List.of(new UsageLine("t", "x", new BigDecimal("2"), null)));
        assertEquals("0.000000", unmeasured.usedGpuHoursShowback().toPlainString());
        assertEquals("2.000000", unmeasured.idleGpuHoursShowback().toPlainString());
        assertEquals("0.00", unmeasured.usedCostShowback().toPlainString());
        assertEquals("3.00", unmeasured.idleCostShowback().toPlainString());
    }

    @Test
    void aMultiModelGroupWithZeroHoursHasRateZero() {
        ReportRow row = only(List.of(line("t", "NVIDIA-A10", "0"), line("t", "NVIDIA-L4", "0")));
        assertEquals("0.000000", row.rate().toPlainString());
        assertEquals("0.00", row.allocatedCost().toPlainString());
    }

    @Test
    void columnsNameTheDimensionThird() {
        assertEquals(List.of("period_start", "period_end", "project", "gpu_models", "allocated_gpu_hours", "rate",
                "currency", "allocated_cost", "rate_card_version", "normalization_policy", "normalization_version",
                "used_gpu_hours_showback", "idle_gpu_hours_showback", "used_cost_showback", "idle_cost_showback",
                "line_type", "corrects_period"), ReportRow.columns(GroupBy.PROJECT));
        CostReport empty = CostCalculator.price(TERMS, CARD, List.of());
        assertTrue(empty.rows().isEmpty());
        assertEquals("gpumeter-tenant-2026-03.csv", empty.fileName(ReportFormat.CSV));
    }

    @Test
    void aPriceChangeIsPricedPieceByPiece() {
        // Until the change (CARD): H100 4.10, default 1.50. After it: H100 5.00, default 2.00.
        // acme: 100 h H100 before (40 used) + 50 h after (50 used): 410 + 250 = 660.00 over 150 h, rate 4.4;
        //       used 90 h: 164 + 250 = 414.00; idle 60 h, 246.00.
        // beta: 10 h of an unlisted model, after only: 10 x 2.00 = 20.00 at the plain rate 2.00, one version.
        RateCard later = new RateCard("rc-10", new BigDecimal("2.00"),
                Map.of("NVIDIA-H100-80GB-HBM3", new BigDecimal("5.00")));
        CostReport report = CostCalculator.price(TERMS, List.of(
                new CostCalculator.Piece(CARD, List.of(new UsageLine("acme", "NVIDIA-H100-80GB-HBM3",
                        new BigDecimal("100"), new BigDecimal("40")))),
                new CostCalculator.Piece(later, List.of(
                        new UsageLine("acme", "NVIDIA H100 80GB HBM3", new BigDecimal("50"), new BigDecimal("50")),
                        new UsageLine("beta", "NVIDIA-L4", new BigDecimal("10"), null)))));
        ReportRow acme = report.rows().get(0);
        assertEquals("150.000000", acme.allocatedGpuHours().toPlainString());
        assertEquals("660.00", acme.allocatedCost().toPlainString());
        assertEquals("4.400000", acme.rate().toPlainString());
        assertEquals("rc-9;rc-10", acme.rateCardVersion());
        assertEquals("NVIDIA H100 80GB HBM3", acme.gpuModels());
        assertEquals("90.000000", acme.usedGpuHoursShowback().toPlainString());
        assertEquals("414.00", acme.usedCostShowback().toPlainString());
        assertEquals("60.000000", acme.idleGpuHoursShowback().toPlainString());
        assertEquals("246.00", acme.idleCostShowback().toPlainString());
        ReportRow beta = report.rows().get(1);
        assertEquals("20.00", beta.allocatedCost().toPlainString());
        assertEquals("2.000000", beta.rate().toPlainString());
        assertEquals("rc-10", beta.rateCardVersion());
    }
}
