package io.gpumeter.console;

import io.gpumeter.console.JitterAnswers.Bucket;
import io.gpumeter.console.JitterAnswers.Curve;
import io.gpumeter.console.JitterAnswers.Event;
import io.gpumeter.console.JitterAnswers.LatencyMinute;
import io.gpumeter.console.JitterAnswers.Neighbour;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A jitter event's charts, every one on the event's time axis with the event shaded: the service's latency against
 * its limit, the same-card neighbours' arrivals and activity, and the service's interference factor by neighbours.
 * A neighbour keeps its colour from chart to chart.
 */
final class JitterCharts {

    /** Activity fields in the order a neighbour's curve is chosen. */
    private JitterCharts() {
    }

    /** The event's span, to shade. */
    static List<List<String>> span(Event e) {
        return List.of(List.of(e.start(), e.end()));
    }

    /** Lines on the event's axis, with room at the left for long names. */
    static ChartOption onTheEventsAxis(Event e, int top) {
        return ChartOption.chart().grid(270, 110, top, 30).timeAcross(e.from(), e.to());
    }

    static ChartOption latency(Event e) {
        ChartOption chart = onTheEventsAxis(e, 56).tooltip(ChartOption.Tooltip.AXIS).legend().valuesUp("ms", null);
        List<LatencyMinute> minutes = e.latency() == null ? List.of() : e.latency();
        chart.lines("p50", points(minutes, LatencyMinute::p50Ms)).colour(Palette.LIGHT_BLUE);
        chart.lines("p95", points(minutes, LatencyMinute::p95Ms)).colour(Palette.MID_BLUE);
        chart.lines("p99", points(minutes, LatencyMinute::p99Ms)).colour(Palette.BLUE)
                .level(e.limitMs() == null ? 0 : e.limitMs().doubleValue(), "limit " + PageFormats.ms(e.limitMs()), Palette.RED)
                .shade(span(e), Palette.SHADE_RED, null, null);
        return chart;
    }

    private static List<List<Object>> points(List<LatencyMinute> minutes, Function<LatencyMinute, BigDecimal> field) {
        List<List<Object>> points = new ArrayList<>();
        for (LatencyMinute m : minutes) {
            BigDecimal v = field.apply(m);
            if (v != null) {
                points.add(List.of(m.minute(), v.doubleValue()));
            }
        }
        return points;
    }

    /** Each neighbour's time on the shared cards as a band on its own row, the event shaded. */
    static ChartOption arrivals(Event e, List<Neighbour> neighbours) {
        List<String> names = neighbours.stream().map(Neighbour::name).toList();
        ChartOption chart = onTheEventsAxis(e, 10).tooltip(ChartOption.Tooltip.ITEM).lanesDown(names, 260);
        for (int i = 0; i < neighbours.size(); i++) {
            Neighbour n = neighbours.get(i);
            String since = n.since() != null ? n.since() : e.from();
            String until = n.until() != null ? n.until() : e.to();
            var band = chart.lines(n.name(), List.of(List.of(since, n.name()), List.of(until, n.name()))).band(10)
                    .colour(Palette.series(i));
            if (i == 0) {
                band.shade(span(e), Palette.SHADE_RED, null, null);
            }
        }
        return chart;
    }

    /**
     * Each neighbour's activity minute by minute by the suite's one rule ({@link ActivityCurve}: SM_ACTIVE, else
     * GR_ENGINE_ACTIVE, else GPU_UTIL), in percent; null when no neighbour has any.
     */
    static ChartOption activity(Event e, List<Neighbour> neighbours) {
        ChartOption chart = onTheEventsAxis(e, 56).tooltip(ChartOption.Tooltip.AXIS).legend().valuesUp("% active", 100);
        boolean any = false;
        for (int i = 0; i < neighbours.size(); i++) {
            Neighbour n = neighbours.get(i);
            ActivityCurve activity = new ActivityCurve();
            if (n.curves() != null) {
                n.curves().forEach((field, curve) -> {
                    if (curve != null && curve.points() != null) {
                        curve.points().forEach(p -> activity.add(field, p.minute(), p.mean()));
                    }
                });
            }
            List<ActivityCurve.Point> points = activity.points();
            if (!points.isEmpty()) {
                chart.lines(n.name() + " " + activity.fields(), points.stream()
                        .<List<Object>>map(p -> List.of(p.minute(), p.percent())).toList()).colour(Palette.series(i));
                any = true;
            }
        }
        return any ? chart : null;
    }

    /** A curve's minutes, each mean 0..1 as a percentage to the tenth. */
    static List<List<Object>> percent(Curve curve) {
        return curve.points().stream().<List<Object>>map(p -> List.of(p.minute(), Math.round(p.mean() * 1000) / 10.0)).toList();
    }

    /** The factor by neighbour count against the dedicated baseline (1, dashed). */
    static ChartOption interference(List<Bucket> buckets) {
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.SHADOW).grid(60, 100, 30, 30)
                .categoriesAcross(buckets.stream().map(Bucket::label).toList(), Integer.MAX_VALUE)
                .valuesUp("p99 ÷ dedicated p99", null);
        chart.bars("IF latency", buckets.stream().map(b -> b.ifLatency() == null ? null : b.ifLatency().doubleValue()).toList())
                .width(50).colour(Palette.PURPLE).level(1, "as dedicated", Palette.GREY);
        return chart;
    }
}
