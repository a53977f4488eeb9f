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
            BillingPeriod.of(YearMonth.of(2026, 3), ZoneOffset.UTC), GroupBy.TENANT, CARD, "EUR",
            new Normalization("whole card = 1", "n-1"));

    private static UsageLine line(String group, String model, String hours) {
        return new UsageLine(group, model, new BigDecimal(hours));
    }

    private static ReportRow only(List<UsageLine> usage) {
        List<ReportRow> rows = CostCalculator.monthly(TERMS, usage).rows();
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
        CostCalculator.Terms terms = new CostCalculator.Terms(TERMS.period(), GroupBy.TEAM, ones, "USD",
                Normalization.UNKNOWN);
        ReportRow tiny = CostCalculator.monthly(terms, List.of(
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
            MonthlyReport report = CostCalculator.monthly(TERMS, usage);
            assertEquals(expected, report.rows().stream().map(ReportRow::group).toList());
            assertEquals("NVIDIA-A10;NVIDIA-L4", report.rows().get(2).gpuModels());
        }
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
                "currency", "allocated_cost", "rate_card_version", "normalization_policy", "normalization_version"),
                ReportRow.columns(GroupBy.PROJECT));
        MonthlyReport empty = CostCalculator.monthly(TERMS, List.of());
        assertTrue(empty.rows().isEmpty());
        assertEquals("gpumeter-tenant-2026-03.csv", empty.fileName(ReportFormat.CSV));
    }
}
