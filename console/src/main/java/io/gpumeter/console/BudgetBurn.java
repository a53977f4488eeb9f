package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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

    private static final List<String> COLOURS = Palette.SERIES;

    /** A budgeted tenant as billing forecast it. */
    record Budget(String tenant, BigDecimal budget, BigDecimal spent, BigDecimal forecast) {
    }

    private BudgetBurn() {
    }

    /** The chart's option, or empty when the series has no days or no budget is above zero. */
    static Optional<Map<String, Object>> option(JsonNode seriesAnswer, List<Budget> budgets, Instant asOf) {
        CostSeries series = new CostSeries(seriesAnswer);
        List<String> days = series.buckets;
        if (days.isEmpty() || budgets.stream().noneMatch(b -> b.budget().signum() > 0)) {
            return Optional.empty();
        }
        int now = days.size() - 1;
        int index = 0;
        for (JsonNode b : seriesAnswer.path("buckets")) {
            Optional<Instant> start = Optional.ofNullable(Format.text(b, "start")).flatMap(Format::instant);
            Optional<Instant> end = Optional.ofNullable(Format.text(b, "end")).flatMap(Format::instant);
            if (asOf != null && start.isPresent() && end.isPresent() && !asOf.isBefore(start.get()) && asOf.isBefore(end.get())) {
                now = index;
            }
            index++;
        }
        Map<String, List<BigDecimal>> cumulative = series.cumulativeCost();
        List<Object> lines = new ArrayList<>();
        int colour = 0;
        for (Budget b : budgets) {
            if (b.budget().signum() <= 0) {
                continue;
            }
            double per = 100 / b.budget().doubleValue();
            List<BigDecimal> running = cumulative.getOrDefault(b.tenant(), List.of());
            List<Object> actual = new ArrayList<>();
            List<Object> forecast = new ArrayList<>();
            double spent = round(b.spent().doubleValue() * per);
            double end = round(b.forecast().doubleValue() * per);
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
            String c = COLOURS.get(colour++ % COLOURS.size());
            lines.add(line(b.tenant(), c, actual, null));
            Map<String, Object> dashed = line(b.tenant() + " forecast", c, forecast, "dashed");
            if (lines.size() == 1) {
                dashed.put("markLine", Map.of("symbol", "none", "silent", true, "lineStyle", Map.of("color", Palette.RED, "width", 2),
                        "label", Map.of("formatter", "budget"), "data", List.of(Map.of("yAxis", 100))));
            }
            lines.add(dashed);
        }
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis"));
        option.put("legend", Map.of("top", 0, "type", "scroll"));
        option.put("grid", Map.of("left", 70, "right", 70, "top", 40, "bottom", 40));
        option.put("xAxis", Map.of("type", "category", "data", days, "boundaryGap", false));
        option.put("yAxis", Map.of("type", "value", "name", "% of budget"));
        option.put("series", lines);
        return Optional.of(option);
    }

    private static Map<String, Object> line(String name, String colour, List<Object> data, String style) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("name", name);
        line.put("type", "line");
        line.put("color", colour);
        line.put("symbol", "none");
        if (style != null) {
            line.put("lineStyle", Map.of("type", style));
        }
        line.put("data", data);
        return line;
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
