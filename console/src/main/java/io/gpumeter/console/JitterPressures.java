package io.gpumeter.console;

import io.gpumeter.console.JitterAnswers.Event;
import io.gpumeter.console.JitterAnswers.Pressure;
import io.gpumeter.console.JitterAnswers.Unmeasured;

import java.util.List;

/**
 * The host's and the card's pressures on a jitter event's service, as slo-service's event carries them
 * ({@code pressures}: each with its curves by field in the neighbours' shape, every point's mean a ratio 0..1 — CFS
 * periods throttled, pressure stall seconds a second, share of the node's network, share of a card's samples a power or
 * thermal reason held its clocks), drawn on the event's time axis; and those slo-service could not measure, said as
 * what is missing ({@code unmeasured}).
 */
final class JitterPressures {

    private JitterPressures() {
    }

    /** One line per pressure and field, in percent, the event shaded; null when the event carries none. */
    static ChartOption chart(Event e) {
        ChartOption chart = JitterCharts.onTheEventsAxis(e, 56).tooltip(ChartOption.Tooltip.AXIS).legend()
                .valuesUp("% of the time", 100);
        int drawn = 0;
        for (Pressure p : e.pressures() == null ? List.<Pressure>of() : e.pressures()) {
            for (var curve : p.curves() == null ? List.<java.util.Map.Entry<String, JitterAnswers.Curve>>of() : p.curves().entrySet()) {
                if (curve.getValue().points() == null || curve.getValue().points().isEmpty()) {
                    continue;
                }
                var line = chart.lines(p.key() + " " + curve.getKey(), JitterCharts.percent(curve.getValue()));
                if (drawn++ == 0) {
                    line.shade(JitterCharts.span(e), Palette.SHADE_RED, null, null);
                }
            }
        }
        return drawn == 0 ? null : chart;
    }

    /** A line per pressure that could not be measured: whose, and what is missing. */
    static List<String> unmeasured(Event e) {
        return e.unmeasured() == null ? List.of() : e.unmeasured().stream().map(Unmeasured::said).toList();
    }
}
