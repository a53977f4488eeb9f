package io.gpumeter.console;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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

    /** The chart, or null when no fact has an instant. */
    static ChartOption option(TriageView triage) {
        List<String> lanes = new ArrayList<>();
        List<Object> marks = new ArrayList<>();
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
        ChartOption chart = ChartOption.chart()
                // the tooltip's template encodes the fact, a tenant's text, as HTML text
                .set("tooltip", Map.of("trigger", "item", "formatter", "{b}", "confine", true,
                        "extraCssText", "max-width: 480px; white-space: normal;"))
                .legend().grid(110, 60, 48, 60).timeAcross(Format.rfc3339(from), Format.rfc3339(to)).lanesDown(lanes, 0).zoomInTime();
        ChartSeries evidence = chart.marks("evidence", marks).set("symbolSize", 13).colour(Palette.BLUE);
        if (triage.at() != null) {
            // the lanes run top down, so the line's start is its top, clear of the time axis's labels
            evidence.at(Format.rfc3339(triage.at()), "triaged", Palette.RED);
        }
        // the legend names the changes' kinds by colour and the tooltip tells each: no labels on the time axis
        return ChangeMarks.added(chart, triage.changes(), from, to, false);
    }

    /** The chart's height for its lanes. */
    static int height(TriageView triage) {
        long lanes = triage.evidence().stream().map(TriageView.Evidence::source).distinct().count();
        return (int) Math.max(200, 130 + 34 * lanes);
    }
}
