package io.gpumeter.console;

import io.gpumeter.console.SloAnswers.BudgetLeft;
import io.gpumeter.console.SloAnswers.Objective;
import io.gpumeter.console.SloAnswers.State;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The SLOs page's charts: attainment against the target, the error budgets' burn-down, a service's latency curve. */
final class SloCharts {

    private SloCharts() {
    }

    /** Each SLO's attainment as a bar (red when under its target) with its target marked, in per cent. */
    static ChartOption attainment(List<SlosResource.Row> rows) {
        List<Object> attained = new ArrayList<>();
        List<Double> targets = new ArrayList<>();
        double lowest = 100;
        for (SlosResource.Row r : rows) {
            double value = r.status() == null || r.status().attainment() == null ? 0 : r.status().attainment().doubleValue() * 100;
            double target = r.slo().target() == null ? 0 : r.slo().target().doubleValue() * 100;
            attained.add(Map.of("value", value, "itemStyle", Map.of("color", r.breached() ? Palette.RED : Palette.GREEN)));
            targets.add(target);
            lowest = Math.min(lowest, Math.min(value, target));
        }
        // the axis starts a little under the lowest figure, so that 99.5 and 99.9 do not look alike
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.SHADOW).legend().grid(160, 30, 40, 30)
                .valuesAcross("%", Math.max(0, Math.floor(lowest - 1)), 100).lanesDown(rows.stream().map(r -> r.slo().name()).toList(), 0);
        chart.bars("attainment", attained).width(24).colour(Palette.GREEN);
        chart.marks("target", targets).colour(Palette.NIGHT).set("symbol", "rect").set("symbolSize", List.of(4, 28));
        return chart;
    }

    /** The budget left as of instants across the window, as slo-states answered it beside each SLO's status. */
    static ChartOption burnDown(List<State> states) {
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.AXIS).legend().grid(60, 20, 40, 40).timeAcross(null, null)
                .valuesUp("% of budget left", null);
        for (State s : states) {
            List<List<Object>> points = new ArrayList<>();
            for (BudgetLeft p : s.budgetLeft() == null ? List.<BudgetLeft>of() : s.budgetLeft()) {
                Optional<Instant> at = Optional.ofNullable(p.at()).flatMap(Format::instant);
                if (p.remaining() != null && at.isPresent()) {
                    points.add(List.of(Format.rfc3339(at.get()), p.remaining().movePointRight(2).doubleValue()));
                }
            }
            chart.lines(s.slo().name() == null ? "" : s.slo().name(), points).set("showSymbol", true);
        }
        return chart;
    }

    /** The service's objective percentile per minute over the window, the objective's threshold dashed. */
    static ChartOption latency(SloAnswers.Latency latency, Objective objective, Span span) {
        String curve = objective == null ? "p99" : objective.curve();
        List<List<Object>> points = new ArrayList<>();
        for (SloAnswers.Minute m : latency.minutes()) {
            BigDecimal v = m.latency() == null ? null : m.latency().of(curve);
            if (v != null) {
                points.add(List.of(m.minute(), v.doubleValue()));
            }
        }
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.AXIS).grid(60, 130, 20, 40)
                .timeAcross(Format.rfc3339(span.from()), span.rfc3339To()).valuesUp("ms", null);
        ChartSeries line = chart.lines(curve, points).colour(Palette.BLUE);
        if (objective != null && objective.thresholdMs() != null) {
            line.level(objective.thresholdMs().doubleValue(), "objective " + Format.plain(objective.thresholdMs()) + " ms", Palette.RED);
        }
        return chart;
    }
}
