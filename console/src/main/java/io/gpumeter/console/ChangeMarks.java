package io.gpumeter.console;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Changes marked on another chart's time axis: a vertical line per change in the chart's span, coloured by kind (a
 * legend entry per kind), dotted for the suite's own actions, each named in its tooltip. Past {@link #MOST_LINES} changes, one line per kind
 * and bucket says how many it stands for; only a few lines carry a label, so the curves stay readable.
 */
final class ChangeMarks {

    static final int MOST_LINES = 60;
    /** Up to this many lines carry their label on the chart; beyond, the legend names their colours and the tooltip tells. */
    static final int LABELLED = 3;
    private static final String KIND = "kind";

    private ChangeMarks() {
    }

    /** The changes of [from, to). */
    static List<BookChange> within(List<BookChange> changes, Instant from, Instant to) {
        return changes.stream().filter(c -> !c.at().isBefore(from) && c.at().isBefore(to)).toList();
    }

    /**
     * Adds a series per kind to the chart, each drawing no point of its own, its mark lines the changes of that kind in
     * [from, to); nothing when none falls in it. A few lines carry their label.
     *
     * @return how many lines were drawn
     */
    static int add(ChartOption chart, List<BookChange> changes, Instant from, Instant to) {
        return add(chart, changes, from, to, true);
    }

    /** The chart with the changes of [from, to) added as {@link #add} adds them. */
    static ChartOption added(ChartOption chart, List<BookChange> changes, Instant from, Instant to, boolean labels) {
        add(chart, changes, from, to, labels);
        return chart;
    }

    /** @param labels whether a few lines may carry their label (not on a chart whose lines' ends fall on its time axis) */
    static int add(ChartOption chart, List<BookChange> changes, Instant from, Instant to, boolean labels) {
        List<BookChange> in = within(changes, from, to);
        if (in.isEmpty()) {
            return 0;
        }
        List<Map<String, Object>> lines = lines(in, from, to);
        // one series per kind, so the legend names the colours and hides or shows a kind
        Map<String, List<Map<String, Object>>> byKind = new LinkedHashMap<>();
        for (Map<String, Object> line : lines) {
            byKind.computeIfAbsent((String) line.get(KIND), k -> new ArrayList<>()).add(without(line, KIND));
        }
        byKind.forEach((kind, data) -> chart.series("line", kind, List.of()).colour(ChangeTimeline.colour(kind))
                .set("markLine", Map.of("silent", false, "symbol", List.of("none", "none"), "tooltip", Map.of("formatter", "{b}"),
                        "label", Map.of("show", labels && lines.size() <= LABELLED, "position", "end", "fontSize", 10, "width", 160,
                                "overflow", "truncate"),
                        "data", data)));
        return lines.size();
    }

    private static Map<String, Object> without(Map<String, Object> line, String key) {
        Map<String, Object> out = new LinkedHashMap<>(line);
        out.remove(key);
        return out;
    }

    private static List<Map<String, Object>> lines(List<BookChange> in, Instant from, Instant to) {
        List<Map<String, Object>> lines = new ArrayList<>();
        if (in.size() <= MOST_LINES) {
            for (BookChange c : in) {
                lines.add(line(c.atText(), c.summary(), c.what(), c.kind(), c.bySuite()));
            }
            return lines;
        }
        // many: one line per kind and bucket, at the bucket's first change, the biggest buckets kept
        Duration bucket = ChangeTimeline.bucket(from, to);
        record Key(String kind, long bucket) {
        }
        Map<Key, List<BookChange>> grouped = new LinkedHashMap<>();
        for (BookChange c : in) {
            long start = Math.floorDiv(c.at().getEpochSecond() - from.getEpochSecond(), bucket.toSeconds());
            grouped.computeIfAbsent(new Key(c.kind(), start), k -> new ArrayList<>()).add(c);
        }
        grouped.values().stream().sorted(Comparator.comparingInt((List<BookChange> g) -> g.size()).reversed())
                .limit(MOST_LINES).sorted(Comparator.comparing((List<BookChange> g) -> g.get(0).at()))
                .forEach(g -> {
                    Set<String> nodes = new HashSet<>();
                    g.forEach(c -> nodes.add(c.where()));
                    BookChange first = g.get(0);
                    String name = first.kind() + " ×" + g.size() + " on " + nodes.size() + " node(s) from " + first.atText()
                            + (g.size() > 1 ? " to " + g.get(g.size() - 1).atText() : "");
                    lines.add(line(first.atText(), name, first.kind() + " ×" + g.size(), first.kind(),
                            g.stream().allMatch(BookChange::bySuite)));
                });
        return lines;
    }

    /** @param label a few words on the chart; the name, in the tooltip, says it all */
    private static Map<String, Object> line(String at, String name, String label, String kind, boolean bySuite) {
        // a label's formatter is a template: braces would be read as its variables
        return Map.of("xAxis", at, "name", name, "label", Map.of("formatter", label.replace("{", "(").replace("}", ")")),
                "lineStyle", Map.of("color", ChangeTimeline.colour(kind), "type", bySuite ? "dotted" : "solid", "width", 1.5),
                KIND, kind);
    }
}
