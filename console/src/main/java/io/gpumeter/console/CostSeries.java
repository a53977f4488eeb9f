package io.gpumeter.console;

import io.gpumeter.console.BillingAnswers.Bucket;
import io.gpumeter.console.BillingAnswers.Line;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Billing's cost series of a month ({@code GET /api/v1/reports/series}) drawn: GPU-hours and cost per day or week and
 * group as stacked bars over the buckets, each group keeping its colour in both charts.
 */
final class CostSeries {

    final BillingAnswers.Series answer;
    final List<String> buckets;
    final Set<String> groups = new LinkedHashSet<>();

    CostSeries(BillingAnswers.Series answer) {
        this.answer = answer;
        this.buckets = answer.buckets() == null ? List.of() : answer.buckets().stream().map(Bucket::label).toList();
        lines().forEach(l -> groups.add(group(l)));
    }

    List<Line> lines() {
        return answer.lines() == null ? List.of() : answer.lines();
    }

    String currency() {
        return answer.currency() == null ? "" : answer.currency();
    }

    String timeZone() {
        return answer.timeZone() == null ? "UTC" : answer.timeZone();
    }

    /** The groups in the order given (largest first), then any the month table did not name. */
    List<String> order(List<String> first) {
        Set<String> all = new LinkedHashSet<>(first);
        all.retainAll(groups);
        all.addAll(groups);
        return List.copyOf(all);
    }

    /** Per bucket, one stack: every group's used hours (solid) under every group's idle hours (pale): allocated in all. */
    ChartOption hoursChart(List<String> order) {
        ChartOption chart = frame("GPU-hours");
        for (String part : List.of("used", "idle")) {
            for (int i = 0; i < order.size(); i++) {
                ChartSeries bars = chart.bars(order.get(i), values(order.get(i), part.equals("used") ? Line::usedGpuHours
                        : Line::idleGpuHours)).stack("allocated").colour(colour(i));
                if (part.equals("idle")) {
                    bars.set("itemStyle", Map.of("opacity", 0.35));
                }
            }
        }
        return chart;
    }

    /** Per bucket, each group's allocated cost stacked. */
    ChartOption costChart(List<String> order) {
        ChartOption chart = frame(currency());
        for (int i = 0; i < order.size(); i++) {
            chart.bars(order.get(i), values(order.get(i), Line::allocatedCost)).stack("cost").colour(colour(i));
        }
        return chart;
    }

    private ChartOption frame(String unit) {
        return ChartOption.chart().tooltip(ChartOption.Tooltip.SHADOW).legend().grid(60, 20, 36, 40).categoriesAcross(buckets)
                .valuesUp(unit, null);
    }

    /** A handful of groups told apart; a group keeps its colour in both charts. */
    private static String colour(int group) {
        return Palette.KINDS.get(group % Palette.KINDS.size());
    }

    private List<Double> values(String group, Function<Line, BigDecimal> figure) {
        Map<String, BigDecimal> byBucket = new LinkedHashMap<>();
        lines().stream().filter(l -> group(l).equals(group))
                .forEach(l -> byBucket.merge(l.bucket(), zero(figure.apply(l)), BigDecimal::add));
        return buckets.stream().map(b -> byBucket.getOrDefault(b, BigDecimal.ZERO).doubleValue()).toList();
    }

    /** Each group's cost summed up to the end of each bucket, for the budgets' burn-up lines. */
    Map<String, List<BigDecimal>> cumulativeCost() {
        Map<String, List<BigDecimal>> out = new LinkedHashMap<>();
        for (String group : groups) {
            List<BigDecimal> running = new ArrayList<>(buckets.size());
            BigDecimal sum = BigDecimal.ZERO;
            for (String b : buckets) {
                for (Line l : lines()) {
                    if (group(l).equals(group) && b.equals(l.bucket())) {
                        sum = sum.add(zero(l.allocatedCost()));
                    }
                }
                running.add(sum);
            }
            out.put(group, running);
        }
        return out;
    }

    private static String group(Line line) {
        return line.group() == null ? "" : line.group();
    }

    private static BigDecimal zero(BigDecimal value) {
        return value == null ? BigDecimal.ZERO : value;
    }
}
