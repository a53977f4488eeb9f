package io.gpumeter.collector.host;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The host series of one source on one node, turned into minutes as Prometheus's {@code increase()} would read them:
 * the increase between two consecutive samples of a counter (the later value itself when it is lower, a reset) is
 * spread evenly over the time between them, each minute taking its share and counting that time as covered; two
 * samples further apart than the largest gap are not joined. A minute closes once every row that has it has a sample
 * at or after its end, or its row fell silent. Applying never changes this track: it returns the track that follows,
 * so a body whose minutes could not be delivered leaves nothing behind.
 */
public final class HostTrack {

    /**
     * A closed minute of one row: the increases of its counters (null for one with none in the minute), the time
     * between its scrapes the minute covered, and its gauges.
     */
    public record Minute(String namespace, String pod, String container, long minuteMs, double[] amounts,
                         boolean[] counted, int covered, double[] gauges, int samples) {

        public Double amount(HostSlot slot) {
            return counted[slot.ordinal()] ? amounts[slot.ordinal()] : null;
        }

        public Double gauge(HostSlot slot) {
            double g = gauges[slot.ordinal()];
            return Double.isNaN(g) ? null : g;
        }
    }

    /** A counter's last sample. */
    private record Last(long atMs, double value) {
    }

    /** One minute of a row while it is open. */
    private static final class Open {
        final double[] amounts = new double[HostSlot.COUNT];
        /** Whether an increase of the slot was spread into this minute. */
        final boolean[] counted = new boolean[HostSlot.COUNT];
        int coveredMs;
        final double[] gauges = new double[HostSlot.COUNT];
        final long[] gaugeAtMs = new long[HostSlot.COUNT];
        int samples;

        Open() {
            Arrays.fill(gauges, Double.NaN);
            Arrays.fill(gaugeAtMs, Long.MIN_VALUE);
        }

        Open copy() {
            Open o = new Open();
            System.arraycopy(amounts, 0, o.amounts, 0, amounts.length);
            System.arraycopy(counted, 0, o.counted, 0, counted.length);
            o.coveredMs = coveredMs;
            System.arraycopy(gauges, 0, o.gauges, 0, gauges.length);
            System.arraycopy(gaugeAtMs, 0, o.gaugeAtMs, 0, gaugeAtMs.length);
            o.samples = samples;
            return o;
        }
    }

    /** A container, a pod, or the node: its counters' last samples and its open minutes. */
    private static final class Row {
        final String namespace;
        final String pod;
        final String container;
        final Map<String, Last> last;
        final TreeMap<Long, Open> open;
        /** The latest value of each gauge, for a minute that had no reading of it: a limit holds until changed. */
        final double[] gauges;
        long lastScrapeMs = Long.MIN_VALUE;
        long heardMs;

        Row(String namespace, String pod, String container) {
            this.namespace = namespace;
            this.pod = pod;
            this.container = container;
            this.last = new HashMap<>();
            this.open = new TreeMap<>();
            this.gauges = new double[HostSlot.COUNT];
            Arrays.fill(gauges, Double.NaN);
        }

        Row(Row from) {
            this.namespace = from.namespace;
            this.pod = from.pod;
            this.container = from.container;
            this.last = new HashMap<>(from.last);
            this.open = new TreeMap<>();
            from.open.forEach((m, o) -> open.put(m, o.copy()));
            this.gauges = from.gauges.clone();
            this.lastScrapeMs = from.lastScrapeMs;
            this.heardMs = from.heardMs;
        }

        Open minute(long minuteMs) {
            return open.computeIfAbsent(minuteMs, m -> new Open());
        }
    }

    /** What applying a body did: the track that follows, and the minutes it closed. */
    public record Applied(HostTrack next, List<Minute> closed) {
    }

    private static final long MINUTE = 60_000L;

    private final Map<String, Row> rows;
    private final long maxGapMs;

    /** @param maxGapMs samples of a counter further apart are not joined (Prometheus looks back 5 minutes) */
    public HostTrack(long maxGapMs) {
        this(new HashMap<>(), maxGapMs);
    }

    private HostTrack(Map<String, Row> rows, long maxGapMs) {
        this.rows = rows;
        this.maxGapMs = maxGapMs;
    }

    /** Rows tracked: containers, pods, or the node. */
    public int rows() {
        return rows.size();
    }

    /**
     * Applies readings that arrived at {@code heardMs} (wall clock); rows not heard of for longer than the largest gap
     * close whatever minutes they have open and are forgotten.
     */
    public Applied apply(List<HostReading> readings, long heardMs) {
        HostTrack next = copy();
        List<HostReading> inOrder = new ArrayList<>(readings);
        inOrder.sort(Comparator.comparingLong(HostReading::atMs));
        Map<Row, Long> scrapes = new HashMap<>();
        Map<Row, List<long[]>> joined = new HashMap<>();
        for (HostReading r : inOrder) {
            Row row = next.rows.computeIfAbsent(r.row(), k -> new Row(r.namespace(), r.pod(), r.container()));
            row.heardMs = heardMs;
            if (r.slot().counter()) {
                long[] interval = next.count(row, r);
                if (interval != null) {
                    joined.computeIfAbsent(row, x -> new ArrayList<>()).add(interval);
                }
                scrapes.merge(row, r.atMs(), Math::max);
            } else {
                next.gauge(row, r);
            }
        }
        joined.forEach(HostTrack::cover);
        scrapes.forEach((row, at) -> {
            if (at > row.lastScrapeMs) {
                row.lastScrapeMs = at;
                row.minute(Math.floorDiv(at, MINUTE) * MINUTE).samples++;
            }
        });
        List<Minute> closed = new ArrayList<>();
        for (Iterator<Row> it = next.rows.values().iterator(); it.hasNext(); ) {
            Row row = it.next();
            boolean silent = heardMs - row.heardMs > maxGapMs;
            closeMinutes(row, silent ? Long.MAX_VALUE : row.lastScrapeMs, closed);
            if (silent) {
                it.remove();
            }
        }
        return new Applied(next, closed);
    }

    /** Closes the minutes of rows silent for longer than the largest gap as of {@code nowMs}, forgetting them. */
    public Applied sweep(long nowMs) {
        return apply(List.of(), nowMs);
    }

    /** Whether no row is left. */
    public boolean empty() {
        return rows.isEmpty();
    }

    /** Adds a counter's sample; returns the interval it joined to the one before, or null. */
    private long[] count(Row row, HostReading r) {
        String key = r.slot().ordinal() + "|" + r.series();
        Last prev = row.last.get(key);
        if (prev != null && r.atMs() <= prev.atMs()) {
            return null; // a sample already read, or older than one read: Prometheus keeps the first
        }
        row.last.put(key, new Last(r.atMs(), r.value()));
        if (prev == null || r.atMs() - prev.atMs() > maxGapMs) {
            return null;
        }
        double increase = r.value() >= prev.value() ? r.value() - prev.value() : r.value();
        long from = prev.atMs();
        long to = r.atMs();
        int slot = r.slot().ordinal();
        for (long m = Math.floorDiv(from, MINUTE) * MINUTE; m < to; m += MINUTE) {
            long overlap = Math.min(to, m + MINUTE) - Math.max(from, m);
            if (overlap <= 0) {
                continue;
            }
            Open open = row.minute(m);
            open.amounts[slot] += increase * overlap / (to - from);
            open.counted[slot] = true;
        }
        return new long[] {from, to};
    }

    /**
     * Counts as covered the time the row's joined intervals span, each moment once: a row's series are scraped
     * together, so the time between two scrapes is covered however many series joined across it.
     */
    private static void cover(Row row, List<long[]> intervals) {
        intervals.sort(Comparator.comparingLong(i -> i[0]));
        long from = Long.MIN_VALUE;
        long to = Long.MIN_VALUE;
        for (long[] i : intervals) {
            if (i[0] > to) {
                coverSpan(row, from, to);
                from = i[0];
            }
            to = Math.max(to, i[1]);
        }
        coverSpan(row, from, to);
    }

    private static void coverSpan(Row row, long from, long to) {
        if (from == Long.MIN_VALUE || to <= from) {
            return;
        }
        for (long m = Math.floorDiv(from, MINUTE) * MINUTE; m < to; m += MINUTE) {
            long overlap = Math.min(to, m + MINUTE) - Math.max(from, m);
            if (overlap > 0) {
                Open open = row.minute(m);
                open.coveredMs = (int) Math.min(MINUTE, open.coveredMs + overlap);
            }
        }
    }

    private static void gauge(Row row, HostReading r) {
        Open open = row.minute(Math.floorDiv(r.atMs(), MINUTE) * MINUTE);
        int slot = r.slot().ordinal();
        if (r.atMs() >= open.gaugeAtMs[slot]) {
            open.gaugeAtMs[slot] = r.atMs();
            open.gauges[slot] = r.value();
        }
        if (row.open.lastKey() == Math.floorDiv(r.atMs(), MINUTE) * MINUTE) {
            row.gauges[slot] = r.value();
        }
    }

    /** Closes the row's open minutes that end at or before {@code until}; a minute no counter covered is dropped. */
    private static void closeMinutes(Row row, long until, List<Minute> closed) {
        for (Iterator<Map.Entry<Long, Open>> it = row.open.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Open> e = it.next();
            if (e.getKey() + MINUTE > until) {
                break;
            }
            Open o = e.getValue();
            if (o.coveredMs > 0) {
                for (int g = 0; g < o.gauges.length; g++) {
                    if (Double.isNaN(o.gauges[g])) {
                        o.gauges[g] = row.gauges[g];
                    }
                }
                closed.add(new Minute(row.namespace, row.pod, row.container, e.getKey(), o.amounts, o.counted,
                        o.coveredMs, o.gauges, o.samples));
            }
            it.remove();
        }
    }

    private HostTrack copy() {
        Map<String, Row> copied = new HashMap<>(rows.size() * 2);
        rows.forEach((k, r) -> copied.put(k, new Row(r)));
        return new HostTrack(copied, maxGapMs);
    }
}
