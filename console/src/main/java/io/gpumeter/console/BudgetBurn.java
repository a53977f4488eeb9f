package io.gpumeter.console;

import io.gpumeter.console.BillingAnswers.Bucket;
import io.gpumeter.console.BillingAnswers.Forecast;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The month drawn against each budget: every budgeted tenant's spend at the end of each day (billing's cost series,
 * summed day by day) up to the forecast's instant, where it meets the spend to date, and from there billing's
 * linear forecast as a dashed line to the month's end; a line at 100 % is the budget. As shares of each budget, so
 * that small and large budgets read alike.
 */
final class BudgetBurn {

    private BudgetBurn() {
    }

    /** The chart, or empty when the series has no days or no budget is above zero. */
    static Optional<ChartOption> chart(CostSeries series, List<Forecast> budgets, Instant asOf) {
        List<String> days = series.buckets;
        List<Forecast> drawn = budgets.stream().filter(b -> b.budget() != null && b.budget().signum() > 0).toList();
        if (days.isEmpty() || drawn.isEmpty()) {
            return Optional.empty();
        }
        int now = today(series.answer.buckets(), asOf, days.size() - 1);
        Map<String, List<BigDecimal>> cumulative = series.cumulativeCost();
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.AXIS).legend().grid(70, 70, 40, 40).pointsAcross(days)
                .valuesUp("% of budget", null);
        for (int b = 0; b < drawn.size(); b++) {
            Forecast f = drawn.get(b);
            double per = 100 / f.budget().doubleValue();
            List<BigDecimal> running = cumulative.getOrDefault(f.tenant(), List.of());
            List<Double> actual = new ArrayList<>();
            List<Double> forecast = new ArrayList<>();
            double spent = round(zero(f.spentToDate()).doubleValue() * per);
            double end = round(zero(f.forecast()).doubleValue() * per);
            for (int d = 0; d < days.size(); d++) {
                if (d < now) {
                    actual.add(round((d < running.size() ? running.get(d).doubleValue() : 0) * per));
                    forecast.add(null);
                } else if (d == now) {
                    actual.add(spent);
                    forecast.add(spent);
                } else {
                    actual.add(null);
                    forecast.add(round(spent + (end - spent) * (d - now) / (days.size() - 1 - now)));
                }
            }
            String colour = Palette.series(b);
            chart.lines(f.tenant(), actual).colour(colour).set("symbol", "none");
            ChartSeries dashed = chart.lines(f.tenant() + " forecast", forecast).colour(colour).set("symbol", "none").dashed();
            if (b == 0) {
                dashed.level(100, "budget", Palette.RED);
            }
        }
        return Optional.of(chart);
    }

    /** The day holding the forecast's instant; the last day when none does. */
    private static int today(List<Bucket> buckets, Instant asOf, int last) {
        for (int i = 0; asOf != null && i < buckets.size(); i++) {
            Optional<Instant> start = Optional.ofNullable(buckets.get(i).start()).flatMap(Format::instant);
            Optional<Instant> end = Optional.ofNullable(buckets.get(i).end()).flatMap(Format::instant);
            if (start.isPresent() && end.isPresent() && !asOf.isBefore(start.get()) && asOf.isBefore(end.get())) {
                return i;
            }
        }
        return last;
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static BigDecimal zero(BigDecimal value) {
        return value == null ? BigDecimal.ZERO : value;
    }
}
