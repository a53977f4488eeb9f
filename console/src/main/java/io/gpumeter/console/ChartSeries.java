package io.gpumeter.console;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One series of a {@link ChartOption}: its name, kind, data and colour (the palette's next unless its meaning names
 * one), and what it marks — a level, an instant, shaded spans.
 */
final class ChartSeries {
    private final Map<String, Object> fields = new LinkedHashMap<>();
    /** The chart it belongs to, set when the chart adds it. */
    ChartOption owner;

    ChartSeries(String name, String type, List<?> data) {
        fields.put("name", name);
        fields.put("type", type);
        fields.put("color", null);
        fields.put("data", data);
    }

    /** The colour its meaning names, instead of the palette's next; null for none (a heatmap's come from its scale). */
    ChartSeries colour(String colour) {
        if (colour == null) {
            fields.remove("color");
        } else {
            fields.put("color", colour);
        }
        return this;
    }

    /** The chart the series belongs to, to go on building it. */
    ChartOption done() {
        return owner;
    }

    /** Stacked on the other series of the same stack. */
    ChartSeries stack(String stack) {
        return set("stack", stack);
    }

    ChartSeries width(int barMaxWidth) {
        return set("barMaxWidth", barMaxWidth);
    }

    /** A line this thick, with a dot at each point: a span drawn as a band. */
    ChartSeries band(int width) {
        return set("lineStyle", Map.of("width", width)).set("symbol", "circle").set("symbolSize", width).set("showSymbol", true);
    }

    /** A line drawn dashed: what is forecast rather than measured. */
    ChartSeries dashed() {
        return set("lineStyle", Map.of("type", "dashed"));
    }

    /** A dashed horizontal line at {@code y}, labelled. */
    ChartSeries level(double y, String label, String colour) {
        return set("markLine", Map.of("symbol", "none", "silent", true, "lineStyle", Map.of("color", colour, "type", "dashed"),
                "label", Map.of("formatter", label), "data", List.of(Map.of("yAxis", y))));
    }

    /** A dashed vertical line at {@code x} (an instant on a time axis), labelled at its start. */
    ChartSeries at(String x, String label, String colour) {
        return set("markLine", Map.of("silent", true, "symbol", List.of("none", "none"),
                "lineStyle", Map.of("color", colour, "type", "dashed"),
                "label", Map.of("formatter", label, "position", "start"), "data", List.of(Map.of("xAxis", x))));
    }

    /** Spans shaded from each pair's first instant to its second, optionally labelled. */
    ChartSeries shade(List<List<String>> spans, String colour, String label, String labelColour) {
        List<Object> data = new ArrayList<>();
        spans.forEach(s -> data.add(List.of(Map.of("xAxis", s.get(0)), Map.of("xAxis", s.get(1)))));
        Map<String, Object> area = new LinkedHashMap<>();
        area.put("silent", true);
        area.put("itemStyle", Map.of("color", colour));
        if (label != null) {
            area.put("label", Map.of("show", true, "formatter", label, "color", labelColour));
        }
        area.put("data", data);
        return set("markArea", area);
    }

    ChartSeries set(String field, Object value) {
        fields.put(field, value);
        return this;
    }

    /** Its name and kind first, then its stack, its colour and its data, then whatever else it marks. */
    Map<String, Object> build() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String first : List.of("name", "type", "stack", "color", "data")) {
            if (fields.containsKey(first)) {
                out.put(first, fields.get(first));
            }
        }
        fields.forEach(out::putIfAbsent);
        return out;
    }
}
