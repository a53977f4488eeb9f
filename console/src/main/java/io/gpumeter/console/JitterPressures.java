package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The host's and the card's pressures on a jitter event's service, as slo-service's event carries them
 * ({@code pressures}: each with its curves by field in the neighbours' shape, every point's mean a ratio 0..1 — CFS
 * periods throttled, pressure stall seconds a second, share of the node's network, share of a card's samples a power or
 * thermal reason held its clocks), drawn on the event's time axis; and those slo-service could not measure, said as
 * what is missing ({@code unmeasured}).
 */
final class JitterPressures {

    private static final List<String> COLORS = List.of("#c2504a", "#4a9fb0", "#b07a4a", "#3c8d5a", "#8a5ab0", "#f0a13a");

    private JitterPressures() {
    }

    /** One line per pressure and field, in percent, the event shaded; null when the event carries none. */
    static Map<String, Object> chart(JsonNode e, Map<String, Object> timeAxis) {
        List<Map<String, Object>> series = new ArrayList<>();
        int i = 0;
        for (JsonNode p : e.path("pressures")) {
            JsonNode curves = p.path("curves");
            for (var fields = curves.fieldNames(); fields.hasNext(); ) {
                String field = fields.next();
                List<List<Object>> points = new ArrayList<>();
                for (JsonNode point : curves.path(field).path("points")) {
                    points.add(List.of(Format.text(point, "minute"), Math.round(point.path("mean").asDouble() * 1000) / 10.0));
                }
                if (points.isEmpty()) {
                    continue;
                }
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("name", Format.text(p, "key") + " " + field);
                s.put("type", "line");
                s.put("showSymbol", false);
                s.put("color", COLORS.get(i++ % COLORS.size()));
                s.put("data", points);
                if (series.isEmpty()) {
                    s.put("markArea", Map.of("silent", true, "itemStyle", Map.of("color", "rgba(194,80,74,0.12)"),
                            "data", List.of(List.of(Map.of("xAxis", Format.text(e, "start")), Map.of("xAxis", Format.text(e, "end"))))));
                }
                series.add(s);
            }
        }
        if (series.isEmpty()) {
            return null;
        }
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis"));
        option.put("legend", Map.of("top", 0, "type", "scroll"));
        option.put("grid", Map.of("left", 270, "right", 110, "top", 56, "bottom", 30));
        option.put("xAxis", timeAxis);
        option.put("yAxis", Map.of("type", "value", "name", "% of the time", "max", 100));
        option.put("series", series);
        return option;
    }

    /** A line per pressure that could not be measured: whose, and what is missing. */
    static List<String> unmeasured(JsonNode e) {
        List<String> out = new ArrayList<>();
        for (JsonNode u : e.path("unmeasured")) {
            out.add("the " + Format.text(u, "kind") + " of " + Format.text(u, "subject") + " (so " + Format.text(u, "cause")
                    + " cannot be ruled out): " + Format.text(u, "missing"));
        }
        return out;
    }
}
