package io.gpumeter.console;

import io.quarkus.qute.TemplateData;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Changes on a time axis, one lane per group (a pool and a kind, or a node's kinds). A few hundred are drawn one by
 * one, coloured by kind; more — a rollout over 2,000 nodes — are counted per lane and hour (or a longer bucket when
 * the window holds more than a week of hours) and drawn as a grid of lanes × buckets, each cell as dark as its count,
 * each lane's busiest cell labelled with it, so the picture stays legible whatever the fleet's size. Each lane's count
 * is written at its right end.
 */
final class ChangeTimeline {

    /** The most changes drawn one by one. */
    static final int POINTS = 400;
    /** The most buckets across the window (a week of hours): the bucket is the first of {@link #BUCKETS} that keeps to it. */
    static final int MOST_BUCKETS = 168;
    static final List<Duration> BUCKETS = List.of(Duration.ofHours(1), Duration.ofHours(3), Duration.ofHours(6),
            Duration.ofHours(12), Duration.ofDays(1), Duration.ofDays(7));

    private static final List<String> COLOURS = Palette.KINDS;
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("MM-dd HH:mm").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("MM-dd").withZone(ZoneOffset.UTC);

    /** Where a change or a bucket of them leads when clicked. */
    interface Links {
        String change(BookChange change);

        /** A bucket of the lane of {@code sample}, from {@code start} to {@code end}. */
        String bucket(BookChange sample, Instant start, Instant end);
    }

    /**
     * What was drawn.
     *
     * @param bucket null when every change is drawn by itself
     * @param points the marks drawn: changes, or cells of counted changes
     */
    @TemplateData
    public record Drawn(ChartOption option, int lanes, Duration bucket, int points) {

        public int height() {
            return Math.max(200, (bucket == null ? 110 : 150) + 26 * lanes);
        }

        /** The bucket in words, {@code hour}, {@code 3 hours}, {@code day}; empty when changes are drawn one by one. */
        public String bucketText() {
            if (bucket == null) {
                return "";
            }
            long hours = bucket.toHours();
            return hours == 1 ? "hour" : hours < 24 ? hours + " hours" : hours == 24 ? "day" : hours / 24 + " days";
        }
    }

    private ChangeTimeline() {
    }

    static String colour(String kind) {
        int i = BookChange.KINDS.indexOf(kind);
        return COLOURS.get((i < 0 ? BookChange.KINDS.size() : i) % COLOURS.size());
    }

    static Duration bucket(Instant from, Instant to) {
        Duration window = Duration.between(from, to);
        for (Duration b : BUCKETS) {
            if (window.dividedBy(b) <= MOST_BUCKETS) {
                return b;
            }
        }
        return BUCKETS.get(BUCKETS.size() - 1);
    }

    /**
     * @param lane  the lane of a change
     * @param order how lanes are ordered, by a change of each
     */
    static Drawn of(List<BookChange> changes, Function<BookChange, String> lane, Comparator<BookChange> order,
                    Instant from, Instant to, Links links) {
        Map<String, BookChange> lanes = new TreeMap<>();
        for (BookChange c : changes) {
            lanes.putIfAbsent(lane.apply(c), c);
        }
        List<String> names = lanes.entrySet().stream().sorted((a, b) -> order.compare(a.getValue(), b.getValue()))
                .map(Map.Entry::getKey).toList();
        if (changes.size() <= POINTS) {
            return oneByOne(changes, lane, names, from, to, links);
        }
        return counted(changes, lane, names, from, to, bucket(from, to), links);
    }

    /** Each change a point at its instant in its lane, coloured by kind; the suite's own hollow. */
    private static Drawn oneByOne(List<BookChange> changes, Function<BookChange, String> lane, List<String> names, Instant from,
                                  Instant to, Links links) {
        Map<String, List<Object>> byKind = new LinkedHashMap<>();
        BookChange.KINDS.forEach(k -> byKind.put(k, new ArrayList<>()));
        for (BookChange c : changes) {
            Map<String, Object> point = new LinkedHashMap<>();
            point.put("value", List.of(c.atText(), lane.apply(c)));
            point.put("name", c.summary());
            point.put("link", links.change(c));
            if (c.bySuite()) {
                // the suite's own actions are drawn hollow: never a cause
                point.put("symbol", "emptyCircle");
            }
            byKind.computeIfAbsent(c.kind(), k -> new ArrayList<>()).add(point);
        }
        ChartOption chart = frame(names, totals(changes, lane, names), 70).legend()
                .timeAcross(Format.rfc3339(from), Format.rfc3339(to));
        byKind.forEach((kind, data) -> {
            if (!data.isEmpty()) {
                chart.marks(kind, data).colour(colour(kind)).set("symbolSize", 11);
            }
        });
        return new Drawn(chart, names.size(), null, changes.size());
    }

    /** Counted per lane and bucket: one cell per bucket that holds any, its count its shade and its label. */
    private static Drawn counted(List<BookChange> changes, Function<BookChange, String> lane, List<String> names, Instant from,
                                 Instant to, Duration bucket, Links links) {
        long size = bucket.toSeconds();
        int columns = (int) Math.max(1, (Duration.between(from, to).toSeconds() + size - 1) / size);
        DateTimeFormatter label = bucket.toHours() < 24 ? HOUR : DAY;
        List<String> starts = new ArrayList<>();
        for (int i = 0; i < columns; i++) {
            starts.add(label.format(from.plusSeconds(i * size)));
        }
        record Cell(int column, int lane) {
        }
        Map<Cell, List<BookChange>> cells = new LinkedHashMap<>();
        for (BookChange c : changes) {
            int column = (int) Math.min(columns - 1, Math.max(0, (c.at().getEpochSecond() - from.getEpochSecond()) / size));
            cells.computeIfAbsent(new Cell(column, names.indexOf(lane.apply(c))), k -> new ArrayList<>()).add(c);
        }
        // each lane's busiest cell carries its count; the others tell theirs in the tooltip (a week of hours leaves
        // a cell a few pixels wide)
        Map<Integer, Cell> peaks = new LinkedHashMap<>();
        cells.forEach((cell, in) -> {
            Cell peak = peaks.get(cell.lane());
            if (peak == null || cells.get(peak).size() < in.size()) {
                peaks.put(cell.lane(), cell);
            }
        });
        List<Object> data = new ArrayList<>();
        int most = 1;
        for (Map.Entry<Cell, List<BookChange>> e : cells.entrySet()) {
            List<BookChange> in = e.getValue();
            Instant start = from.plusSeconds(e.getKey().column() * size);
            Instant end = start.plus(bucket);
            int nodes = BookChange.nodes(in);
            int suite = BookChange.bySuite(in);
            most = Math.max(most, in.size());
            Map<String, Object> cell = new LinkedHashMap<>();
            cell.put("value", List.of(e.getKey().column(), e.getKey().lane(), in.size()));
            cell.put("name", names.get(e.getKey().lane()) + ": " + in.size() + " change(s)" + (nodes == 0 ? "" : " on " + nodes
                    + " node(s)") + (suite > 0 ? ", " + suite + " made by gpumeter" : "") + ", " + Format.rfc3339(start) + " – "
                    + Format.rfc3339(end));
            cell.put("link", links.bucket(in.get(0), start, end));
            if (e.getKey().equals(peaks.get(e.getKey().lane()))) {
                cell.put("label", Map.of("show", true, "position", "right", "color", Palette.NIGHT, "fontSize", 10));
            }
            data.add(cell);
        }
        ChartOption chart = frame(names, totals(changes, lane, names), 100)
                .set("xAxis", Map.of("type", "category", "data", starts, "splitArea", Map.of("show", false)))
                .set("visualMap", Map.of("min", 1, "max", most, "calculable", true, "orient", "horizontal", "left", "center",
                        "bottom", 0, "itemHeight", 160, "text", List.of(most + " changes", "1"),
                        "inRange", Map.of("color", Palette.BLUE_SCALE)));
        // a count where its cell is wide enough to hold it: zoom in for the rest (the tooltip always tells)
        chart.series("heatmap", "changes", data).colour(null).set("label", Map.of("show", false))
                .set("labelLayout", Map.of("hideOverlap", true))
                .set("emphasis", Map.of("itemStyle", Map.of("borderColor", Palette.NIGHT, "borderWidth", 1)));
        return new Drawn(chart, names.size(), bucket, data.size());
    }

    /** Each lane's count of changes, as its label on the right says it. */
    private static List<String> totals(List<BookChange> changes, Function<BookChange, String> lane, List<String> names) {
        Map<String, Integer> count = new LinkedHashMap<>();
        changes.forEach(c -> count.merge(lane.apply(c), 1, Integer::sum));
        return names.stream().map(n -> String.format(Locale.ROOT, "%,d", count.getOrDefault(n, 0))).toList();
    }

    /** What both pictures share: the lanes, each lane's count on the right, a tooltip naming each mark, zooming in time. */
    private static ChartOption frame(List<String> names, List<String> totals, int bottom) {
        return ChartOption.chart().tooltip(ChartOption.Tooltip.ITEM, "{b}").grid(340, 70, 40, bottom)
                .lanesDown(names, 330, totals, "changes")
                .set("dataZoom", List.of(Map.of("type", "inside", "xAxisIndex", 0),
                        Map.of("type", "slider", "xAxisIndex", 0, "height", 18, "bottom", bottom - 58 + 10)));
    }
}
