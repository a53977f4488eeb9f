package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Billing's cost series of a month (GET /api/v1/reports/series): GPU-hours and cost per day or week and group, read
 * into table lines and drawn as stacked bars over the buckets.
 */
final class CostSeries {

    /** A palette that tells a handful of groups apart; a group keeps its colour in both charts. */
    private static final List<String> COLOURS = Palette.KINDS;

    /** One group's hours, cost and energy (kWh its units drew) in one bucket, as billing answered them. */
    @TemplateData
    record Line(String bucket, String group, BigDecimal allocated, BigDecimal used, BigDecimal idle, BigDecimal cost,
                BigDecimal usedCost, BigDecimal idleCost, BigDecimal energyKWh) {
        public String allocatedText() {
            return Format.number(allocated);
        }

        public String usedText() {
            return Format.number(used);
        }

        public String idleText() {
            return Format.number(idle);
        }

        public String costText() {
            return Format.number(cost);
        }

        public String usedCostText() {
            return Format.number(usedCost);
        }

        public String idleCostText() {
            return Format.number(idleCost);
        }

        public String energyText() {
            return Format.number(energyKWh);
        }
    }

    final List<String> buckets = new ArrayList<>();
    final List<Line> lines = new ArrayList<>();
    final Set<String> groups = new LinkedHashSet<>();
    final String currency;
    final String timeZone;

    CostSeries(JsonNode answer) {
        answer.path("buckets").forEach(b -> buckets.add(Format.text(b, "label")));
        for (JsonNode l : answer.path("lines")) {
            String group = Format.text(l, "group");
            Line line = new Line(Format.text(l, "bucket"), group == null ? "" : group, Format.decimal(l, "allocatedGpuHours"),
                    Format.decimal(l, "usedGpuHours"), Format.decimal(l, "idleGpuHours"), Format.decimal(l, "allocatedCost"),
                    Format.decimal(l, "usedCost"), Format.decimal(l, "idleCost"), Format.decimal(l, "energyKWh"));
            lines.add(line);
            groups.add(line.group());
        }
        currency = Format.text(answer, "currency") == null ? "" : Format.text(answer, "currency");
        timeZone = Format.text(answer, "timeZone") == null ? "UTC" : Format.text(answer, "timeZone");
    }

    /** The groups in the order given (largest first), then any the month table did not name. */
    List<String> order(List<String> first) {
        Set<String> all = new LinkedHashSet<>(first);
        all.retainAll(groups);
        all.addAll(groups);
        return List.copyOf(all);
    }

    /** Per bucket, one stack: every group's used hours (solid) under every group's idle hours (pale): allocated in all. */
    Map<String, Object> hoursChart(List<String> order) {
        List<Object> series = new ArrayList<>();
        for (String part : List.of("used", "idle")) {
            for (int i = 0; i < order.size(); i++) {
                String group = order.get(i);
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("name", group);
                s.put("type", "bar");
                s.put("stack", "allocated");
                s.put("barMaxWidth", 40);
                s.put("color", COLOURS.get(i % COLOURS.size()));
                if (part.equals("idle")) {
                    s.put("itemStyle", Map.of("opacity", 0.35));
                }
                s.put("data", values(group, part.equals("used") ? Line::used : Line::idle));
                series.add(s);
            }
        }
        return axis(series, "GPU-hours");
    }

    /** Per bucket, each group's allocated cost stacked. */
    Map<String, Object> costChart(List<String> order) {
        List<Object> series = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            series.add(Map.of("name", order.get(i), "type", "bar", "stack", "cost", "barMaxWidth", 40,
                    "color", COLOURS.get(i % COLOURS.size()), "data", values(order.get(i), Line::cost)));
        }
        return axis(series, currency);
    }

    private List<Double> values(String group, java.util.function.Function<Line, BigDecimal> figure) {
        Map<String, BigDecimal> byBucket = new LinkedHashMap<>();
        lines.stream().filter(l -> l.group().equals(group)).forEach(l -> byBucket.merge(l.bucket(), figure.apply(l), BigDecimal::add));
        return buckets.stream().map(b -> byBucket.getOrDefault(b, BigDecimal.ZERO).doubleValue()).toList();
    }

    private Map<String, Object> axis(List<Object> series, String unit) {
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0, "type", "scroll"));
        option.put("grid", Map.of("left", 60, "right", 20, "top", 36, "bottom", 40));
        option.put("xAxis", Map.of("type", "category", "data", buckets));
        option.put("yAxis", Map.of("type", "value", "name", unit));
        option.put("series", series);
        return option;
    }

    /** Each group's cumulative allocated cost at the end of each bucket, for the budgets' burn-up lines. */
    Map<String, List<BigDecimal>> cumulativeCost() {
        Map<String, List<BigDecimal>> out = new LinkedHashMap<>();
        for (String group : groups) {
            List<BigDecimal> running = new ArrayList<>(buckets.size());
            BigDecimal sum = BigDecimal.ZERO;
            for (String b : buckets) {
                for (Line l : lines) {
                    if (l.group().equals(group) && l.bucket().equals(b)) {
                        sum = sum.add(l.cost());
                    }
                }
                running.add(sum);
            }
            out.put(group, running);
        }
        return out;
    }
}
