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
    private final List<ChartSeries> series = new ArrayList<>();

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

    /** Categories across, their labels as ECharts spaces them: many days of a month. */
    ChartOption categoriesAcross(List<String> categories) {
        option.put("xAxis", Map.of("type", "category", "data", categories));
        return this;
    }

    /** Categories across, their labels slanted when there are more than {@code slantPast}. */
    ChartOption categoriesAcross(List<String> categories, int slantPast) {
        option.put("xAxis", Map.of("type", "category", "data", categories,
                "axisLabel", Map.of("interval", 0, "rotate", categories.size() > slantPast ? 30 : 0)));
        return this;
    }

    /** Categories across with each point on its category rather than between two: a day's end, drawn as a line. */
    ChartOption pointsAcross(List<String> categories) {
        option.put("xAxis", Map.of("type", "category", "data", categories, "boundaryGap", false));
        return this;
    }

    /** Time across, from {@code min} to {@code max} (RFC 3339), either null to fit the data. */
    ChartOption timeAcross(String min, String max) {
        Map<String, Object> axis = new LinkedHashMap<>();
        axis.put("type", "time");
        option.put("xAxis", bounded(axis, min, max));
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
        return valuesUp(unit, null, max);
    }

    /** Values up from {@code min} to {@code max}, named by their unit; either null to fit the data. */
    ChartOption valuesUp(String unit, Number min, Number max) {
        Map<String, Object> axis = new LinkedHashMap<>();
        axis.put("type", "value");
        axis.put("name", unit);
        option.put("yAxis", bounded(axis, min, max));
        return this;
    }

    /** Values across (bars lying along lanes), named by their unit; {@code min} and {@code max} null to fit the data. */
    ChartOption valuesAcross(String unit, Number min, Number max) {
        Map<String, Object> axis = new LinkedHashMap<>();
        axis.put("type", "value");
        if (unit != null) {
            axis.put("name", unit);
            axis.put("nameLocation", "middle");
            axis.put("nameGap", 28);
        }
        option.put("xAxis", bounded(axis, min, max));
        return this;
    }

    /** The axis from {@code min} to {@code max}, either null to fit the data. */
    private static Map<String, Object> bounded(Map<String, Object> axis, Object min, Object max) {
        if (min != null) {
            axis.put("min", min);
        }
        if (max != null) {
            axis.put("max", max);
        }
        return axis;
    }

    /** Whole counts across (bars lying along lanes): no tick between two whole numbers. */
    ChartOption countsAcross() {
        option.put("xAxis", Map.of("type", "value", "minInterval", 1));
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

    /** Lanes down as {@link #lanesDown}, each lane's count written at its right end under {@code countsName}. */
    ChartOption lanesDown(List<String> lanes, int labelWidth, List<String> counts, String countsName) {
        lanesDown(lanes, labelWidth);
        Object lanesAxis = option.get("yAxis");
        option.put("yAxis", List.of(lanesAxis, Map.of("type", "category", "data", counts, "inverse", true, "position", "right",
                "name", countsName, "nameLocation", "start", "axisTick", Map.of("show", false), "axisLine", Map.of("show", false))));
        return this;
    }

    /** Anything else ECharts reads at the option's top level, such as a heatmap's {@code visualMap}. */
    ChartOption set(String field, Object value) {
        option.put(field, value);
        return this;
    }

    /** A series of a kind the methods above do not draw (a pie, a heatmap). */
    ChartSeries series(String type, String name, List<?> data) {
        return add(new ChartSeries(name, type, data));
    }

    ChartSeries bars(String name, List<?> data) {
        return add(new ChartSeries(name, "bar", data).set("barMaxWidth", 40));
    }

    ChartSeries lines(String name, List<?> data) {
        return add(new ChartSeries(name, "line", data).set("showSymbol", false));
    }

    ChartSeries marks(String name, List<?> data) {
        return add(new ChartSeries(name, "scatter", data).set("symbolSize", 12));
    }

    private ChartSeries add(ChartSeries s) {
        s.owner = this;
        s.colour(Palette.series(series.size()));
        series.add(s);
        return s;
    }

    /** The option as ECharts reads it; the series in the order they were added. */
    Map<String, Object> build() {
        Map<String, Object> out = new LinkedHashMap<>(option);
        out.put("series", new ArrayList<>(series.stream().map(ChartSeries::build).toList()));
        return out;
    }
}
