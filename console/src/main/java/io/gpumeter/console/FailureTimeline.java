package io.gpumeter.console;

import io.gpumeter.console.FailureAnswers.Incident;
import io.quarkus.qute.TemplateData;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The failures that started in a window on its time axis, one lane per cause, each at its start and coloured by how
 * it ended (open, recovered, ended unrecovered), from the ledger's {@code GET /api/v1/failures/incidents?from=&to=}.
 */
final class FailureTimeline {

    /** The most incidents drawn: the first page of the window's list (the page says when there were more). */
    static final int MOST = 1_000;
    /** The most changes read per node the failures happened on. */
    static final int CHANGES_PER_NODE = 200;
    private static final Map<String, String> COLOURS = Map.of("open", Palette.RED, "recovered", Palette.GREEN,
            "ended unrecovered", Palette.GREY);

    private FailureTimeline() {
    }

    /** The chart's option, its lanes, and how many change marks it carries. */
    @TemplateData
    public record Drawn(ChartOption option, int lanes, int marked) {

        public int height() {
            return Math.max(250, 150 + 30 * lanes);
        }

        Drawn marked(int lines) {
            return new Drawn(option, lanes, lines);
        }
    }

    static Drawn of(List<Incident> incidents, Instant from, Instant to) {
        TreeSet<String> causes = new TreeSet<>();
        Map<String, List<Map<String, Object>>> byState = new LinkedHashMap<>();
        for (String state : List.of("open", "recovered", "ended unrecovered")) {
            byState.put(state, new ArrayList<>());
        }
        for (Incident i : incidents) {
            if (i.startedAt() == null) {
                continue;
            }
            String cause = Optional.ofNullable(i.cause()).orElse("(unknown)");
            causes.add(cause);
            BigDecimal repair = i.repairSeconds();
            String where = i.place();
            Map<String, Object> point = new LinkedHashMap<>();
            point.put("value", List.of(i.startedAt(), cause));
            point.put("name", i.startedAt() + " " + cause + (where.isEmpty() ? "" : " on " + where) + ": " + i.state()
                    + (repair != null ? " after " + Format.duration(repair) : ""));
            byState.get(i.state()).add(point);
        }
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.ITEM, "{b}")
                .set("legend", Map.of("top", 0)).grid(160, 40, 40, 70)
                // failures and the changes before them are minutes apart in a window of days: zoom in to tell them apart
                .zoomInTime().timeAcross(Format.rfc3339(from), Format.rfc3339(to)).lanesDown(List.copyOf(causes), 150);
        byState.forEach((state, points) -> chart.marks(state, points).colour(COLOURS.get(state)));
        return new Drawn(chart, causes.size(), 0);
    }
}
