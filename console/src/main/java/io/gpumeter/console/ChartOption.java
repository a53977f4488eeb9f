package io.gpumeter.console;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An ECharts option built in types rather than nested maps: the axes, the legend and tooltip, and the series, each
 * taking the next colour of {@link Palette#SERIES} unless its meaning names one. {@link #build()} gives the option as
 * ECharts reads it (a mutable map, so {@link ChangeMarks} can add its lines).
 */
final class ChartOption {

    /** What hovering shows: the item, or every series at the axis (as a shadow over bars). */
    enum Tooltip { ITEM, AXIS, SHADOW }

    private final Map<String, Object> option = new LinkedHashMap<>();
    private final List<Series> series = new ArrayList<>();

    static ChartOption chart() {
        return new ChartOption();
    }

    ChartOption tooltip(Tooltip tooltip) {
        return tooltip(tooltip, null);
    }

    /** @param formatter ECharts' template for the item, e.g. {@code {b}} for its name; null for the default */
    ChartOption tooltip(Tooltip tooltip, String formatter) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("trigger", tooltip == Tooltip.ITEM ? "item" : "axis");
        if (tooltip == Tooltip.SHADOW) {
            t.put("axisPointer", Map.of("type", "shadow"));
        }
        if (formatter != null) {
            t.put("formatter", formatter);
        }
        option.put("tooltip", t);
        return this;
    }

    /** A legend above the plot that scrolls when the series are many. */
    ChartOption legend() {
        option.put("legend", Map.of("top", 0, "type", "scroll"));
        return this;
    }

    ChartOption grid(int left, int right, int top, int bottom) {
        option.put("grid", Map.of("left", left, "right", right, "top", top, "bottom", bottom));
        return this;
    }

    /** Categories across, their labels slanted when there are more than {@code slantPast}. */
    ChartOption categoriesAcross(List<String> categories, int slantPast) {
        option.put("xAxis", Map.of("type", "category", "data", categories,
                "axisLabel", Map.of("interval", 0, "rotate", categories.size() > slantPast ? 30 : 0)));
        return this;
    }

    /** Time across, from {@code min} to {@code max} (RFC 3339), either null to fit the data. */
    ChartOption timeAcross(String min, String max) {
        Map<String, Object> axis = new LinkedHashMap<>();
        axis.put("type", "time");
        if (min != null) {
            axis.put("min", min);
        }
        if (max != null) {
            axis.put("max", max);
        }
        option.put("xAxis", axis);
        return this;
    }

    /** A slider and the wheel zoom in time, for marks minutes apart in a window of days. */
    ChartOption zoomInTime() {
        option.put("dataZoom", List.of(Map.of("type", "inside", "xAxisIndex", 0),
                Map.of("type", "slider", "xAxisIndex", 0, "height", 18, "bottom", 12)));
        return this;
    }

    /** Values up, named by their unit; {@code max} null to fit the data. */
    ChartOption valuesUp(String unit, Number max) {
        Map<String, Object> axis = new LinkedHashMap<>();
        axis.put("type", "value");
        axis.put("name", unit);
        if (max != null) {
            axis.put("max", max);
        }
        option.put("yAxis", axis);
        return this;
    }

    /** Lanes down, the first on top, their labels cut at {@code labelWidth} pixels (0: as long as they are). */
    ChartOption lanesDown(List<String> lanes, int labelWidth) {
        Map<String, Object> axis = new LinkedHashMap<>();
        axis.put("type", "category");
        axis.put("data", lanes);
        axis.put("inverse", true);
        if (labelWidth > 0) {
            axis.put("axisLabel", Map.of("width", labelWidth, "overflow", "truncate"));
        }
        option.put("yAxis", axis);
        return this;
    }

    /** Anything else ECharts reads at the option's top level, such as a heatmap's {@code visualMap}. */
    ChartOption set(String field, Object value) {
        option.put(field, value);
        return this;
    }

    /** A series of a kind the methods above do not draw (a pie, a heatmap). */
    Series series(String type, String name, List<?> data) {
        return add(new Series(name, type, data));
    }

    Series bars(String name, List<?> data) {
        return add(new Series(name, "bar", data).set("barMaxWidth", 40));
    }

    Series lines(String name, List<?> data) {
        return add(new Series(name, "line", data).set("showSymbol", false));
    }

    Series marks(String name, List<?> data) {
        return add(new Series(name, "scatter", data).set("symbolSize", 12));
    }

    private Series add(Series s) {
        s.owner = this;
        s.colour(Palette.series(series.size()));
        series.add(s);
        return s;
    }

    /** The option as ECharts reads it; the series in the order they were added. */
    Map<String, Object> build() {
        Map<String, Object> out = new LinkedHashMap<>(option);
        out.put("series", new ArrayList<>(series.stream().map(Series::build).toList()));
        return out;
    }

    /** One series: its name, kind, data and colour, and what it marks. */
    static final class Series {
        private final Map<String, Object> fields = new LinkedHashMap<>();
        private ChartOption owner;

        private Series(String name, String type, List<?> data) {
            fields.put("name", name);
            fields.put("type", type);
            fields.put("color", null);
            fields.put("data", data);
        }

        /** The colour its meaning names, instead of the palette's next; null for none (a heatmap's come from its scale). */
        Series colour(String colour) {
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
        Series stack(String stack) {
            return set("stack", stack);
        }

        Series width(int barMaxWidth) {
            return set("barMaxWidth", barMaxWidth);
        }

        /** A line this thick, with a dot at each point: a span drawn as a band. */
        Series band(int width) {
            return set("lineStyle", Map.of("width", width)).set("symbol", "circle").set("symbolSize", width).set("showSymbol", true);
        }

        /** A dashed horizontal line at {@code y}, labelled. */
        Series level(double y, String label, String colour) {
            return set("markLine", Map.of("symbol", "none", "silent", true, "lineStyle", Map.of("color", colour, "type", "dashed"),
                    "label", Map.of("formatter", label), "data", List.of(Map.of("yAxis", y))));
        }

        /** Spans shaded from each pair's first instant to its second, optionally labelled. */
        Series shade(List<List<String>> spans, String colour, String label, String labelColour) {
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

        Series set(String field, Object value) {
            fields.put(field, value);
            return this;
        }

        private Map<String, Object> build() {
            return new LinkedHashMap<>(fields);
        }
    }
}
