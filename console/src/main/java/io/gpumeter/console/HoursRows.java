package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A month's hours and energy per group from the ledger ({@code GET /api/v1/gpu-hours}) beside their cost, energy cost
 * and CO2e from billing's monthly report ({@link MonthlyCost}), and their charts.
 */
final class HoursRows {

    private HoursRows() {
    }

    /** One group's hours as the ledger answers them; {@code group} names it by each dimension asked. */
    @RegisterForReflection
    record GroupHours(String key, Map<String, String> group, BigDecimal allocatedGpuHours, BigDecimal usedGpuHours,
                      BigDecimal idleGpuHours, BigDecimal usageCoverage, String usageConfidence, BigDecimal energyKWh) {

        String name(String dimension) {
            String name = group == null ? null : group.get(dimension);
            return name != null ? name : key;
        }
    }

    /**
     * One group's month (a tenant, team or project); {@code energyKWh} is what its units drew (ledger),
     * {@code energyCost} and {@code co2eKg} billing's figures for it, null where billing's cards give none; the cost
     * cells stay empty unless {@code priced} (billing answered).
     */
    @TemplateData
    public record Row(String tenant, BigDecimal allocated, BigDecimal used, BigDecimal idle, BigDecimal coverage,
                      String confidence, BigDecimal allocatedCost, BigDecimal usedCost, BigDecimal idleCost, boolean priced,
                      BigDecimal energyKWh, BigDecimal energyCost, BigDecimal co2eKg) {
    }

    /** @param cost billing's report per group, or null when billing did not answer (the cost cells stay empty) */
    static List<Row> rows(List<GroupHours> hours, MonthlyCost cost, String dimension) {
        List<Row> rows = new ArrayList<>();
        for (GroupHours h : hours) {
            String group = h.name(dimension);
            MonthlyCost.Figures c = cost == null ? MonthlyCost.Figures.NONE : cost.of(group);
            rows.add(new Row(group, zero(h.allocatedGpuHours()), zero(h.usedGpuHours()), zero(h.idleGpuHours()),
                    zero(h.usageCoverage()), h.usageConfidence(), c.allocated(), c.used(), c.idle(), cost != null,
                    zero(h.energyKWh()), c.energyCost(), c.co2eKg()));
        }
        rows.sort(Comparator.comparing(Row::allocated).reversed());
        return rows;
    }

    /** The rows summed: the month's table foot. */
    static Row total(List<Row> rows) {
        Row sum = new Row("all", BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, null, "", BigDecimal.ZERO,
                BigDecimal.ZERO, BigDecimal.ZERO, false, BigDecimal.ZERO, null, null);
        for (Row r : rows) {
            sum = new Row("all", sum.allocated.add(r.allocated), sum.used.add(r.used), sum.idle.add(r.idle), null, "",
                    sum.allocatedCost.add(r.allocatedCost), sum.usedCost.add(r.usedCost), sum.idleCost.add(r.idleCost),
                    sum.priced || r.priced, sum.energyKWh.add(r.energyKWh), MonthlyCost.sum(sum.energyCost, r.energyCost),
                    MonthlyCost.sum(sum.co2eKg, r.co2eKg));
        }
        return sum;
    }

    /** Per group, its used hours under its idle hours: the allocation in all. */
    static ChartOption hoursChart(List<Row> rows) {
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.SHADOW).legend().grid(60, 20, 36, 40)
                .categoriesAcross(rows.stream().map(Row::tenant).toList(), Integer.MAX_VALUE).valuesUp("GPU-hours", null);
        chart.bars("used", rows.stream().map(r -> r.used().doubleValue()).toList()).stack("allocated").width(90).colour(Palette.BLUE);
        chart.bars("idle", rows.stream().map(r -> r.idle().doubleValue()).toList()).stack("allocated").width(90).colour(Palette.ORANGE);
        return chart;
    }

    /** Per group, its used cost under its idle cost, in billing's currency. */
    static ChartOption costChart(List<Row> rows, String currency) {
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.SHADOW).legend().grid(60, 20, 36, 40)
                .categoriesAcross(rows.stream().map(Row::tenant).toList(), Integer.MAX_VALUE).valuesUp(currency, null);
        chart.bars("used cost", rows.stream().map(r -> r.usedCost().doubleValue()).toList()).stack("cost").width(90)
                .colour(Palette.GREEN);
        chart.bars("idle cost", rows.stream().map(r -> r.idleCost().doubleValue()).toList()).stack("cost").width(90)
                .colour(Palette.PALE_GREEN);
        return chart;
    }

    private static BigDecimal zero(BigDecimal value) {
        return value == null ? BigDecimal.ZERO : value;
    }
}
