package io.gpumeter.console;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A triage's evidence on a time axis: one lane per source (pod status, events, the node, the GPU stack, usage …), a
 * mark per fact at its instant (the fact in its tooltip), the instant triaged as a line, and the changes before it
 * marked as on the other pages' time axes. Facts without an instant are in the table only.
 */
final class EvidenceAxis {

    /** Room on each side of the first and last mark, so neither sits on the chart's edge. */
    private static final Duration MARGIN = Duration.ofMinutes(5);

    private EvidenceAxis() {
    }

    /** The chart's option, or null when no fact has an instant. */
    static Map<String, Object> option(TriageView triage) {
        List<String> lanes = new ArrayList<>();
        List<Map<String, Object>> marks = new ArrayList<>();
        Instant first = triage.at();
        Instant last = triage.at();
        for (TriageView.Evidence e : triage.evidence()) {
            Instant at = e.at() == null ? null : Format.instant(e.at()).orElse(null);
            if (at == null) {
                continue;
            }
            String lane = e.source() == null ? "(source not said)" : e.source();
            if (!lanes.contains(lane)) {
                lanes.add(lane);
            }
            marks.add(Map.of("value", List.of(Format.rfc3339(at), lane), "name", e.fact() == null ? "" : e.fact()));
            first = first == null || at.isBefore(first) ? at : first;
            last = last == null || at.isAfter(last) ? at : last;
        }
        if (marks.isEmpty()) {
            return null;
        }
        for (BookChange c : triage.changes()) {
            first = c.at().isBefore(first) ? c.at() : first;
        }
        Instant from = first.minus(MARGIN);
        Instant to = last.plus(MARGIN);
        Map<String, Object> series = new LinkedHashMap<>();
        series.put("name", "evidence");
        series.put("type", "scatter");
        series.put("symbolSize", 13);
        series.put("color", Palette.BLUE);
        series.put("data", marks);
        if (triage.at() != null) {
            series.put("markLine", Map.of("silent", true, "symbol", List.of("none", "none"),
                    "lineStyle", Map.of("color", Palette.RED, "type", "dashed"),
                    // the lanes run top down, so the line's start is its top, clear of the time axis's labels
                    "label", Map.of("formatter", "triaged", "position", "start"),
                    "data", List.of(Map.of("xAxis", Format.rfc3339(triage.at())))));
        }
        Map<String, Object> option = new LinkedHashMap<>();
        // the tooltip's template encodes the fact, a tenant's text, as HTML text
        option.put("tooltip", Map.of("trigger", "item", "formatter", "{b}", "confine", true, "extraCssText", "max-width: 480px; white-space: normal;"));
        option.put("legend", Map.of("top", 0, "type", "scroll"));
        option.put("grid", Map.of("left", 110, "right", 60, "top", 48, "bottom", 60));
        option.put("xAxis", Map.of("type", "time", "min", Format.rfc3339(from), "max", Format.rfc3339(to)));
        option.put("yAxis", Map.of("type", "category", "data", lanes, "inverse", true));
        option.put("dataZoom", List.of(Map.of("type", "slider", "xAxisIndex", 0, "height", 18, "bottom", 8),
                Map.of("type", "inside", "xAxisIndex", 0)));
        option.put("series", new ArrayList<>(List.of(series)));
        // the legend names the changes' kinds by colour and the tooltip tells each: no labels on the time axis
        ChangeMarks.add(option, triage.changes(), from, to, false);
        return option;
    }

    /** The chart's height for its lanes. */
    static int height(TriageView triage) {
        long lanes = triage.evidence().stream().map(TriageView.Evidence::source).distinct().count();
        return (int) Math.max(200, 130 + 34 * lanes);
    }
}
