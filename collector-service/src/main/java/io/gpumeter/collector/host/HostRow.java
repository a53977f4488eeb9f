package io.gpumeter.collector.host;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One row of a {@link HostTrack} — a container, a pod, or the node: its counters' last samples and its open minutes;
 * how a counter's increase is spread over the minutes between two samples, how the time between scrapes is counted
 * as covered, how a gauge is kept, and when a minute closes.
 */
final class HostRow {

    static final long MINUTE = 60_000L;

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

    private final String namespace;
    private final String pod;
    private final String container;
    private final Map<String, Last> last;
    private final TreeMap<Long, Open> open;
    /** The latest value of each gauge, for a minute that had no reading of it: a limit holds until changed. */
    private final double[] gauges;
    private long lastScrapeMs = Long.MIN_VALUE;
    /** When the row was last heard of (wall clock). */
    long heardMs;

    HostRow(String namespace, String pod, String container) {
        this.namespace = namespace;
        this.pod = pod;
        this.container = container;
        this.last = new HashMap<>();
        this.open = new TreeMap<>();
        this.gauges = new double[HostSlot.COUNT];
        Arrays.fill(gauges, Double.NaN);
    }

    /** A copy that changes apart from {@code from}. */
    HostRow(HostRow from) {
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

    long lastScrapeMs() {
        return lastScrapeMs;
    }

    private Open minute(long minuteMs) {
        return open.computeIfAbsent(minuteMs, m -> new Open());
    }

    /** Counts a scrape at {@code atMs} in its minute, unless the row has one as late already. */
    void scraped(long atMs) {
        if (atMs > lastScrapeMs) {
            lastScrapeMs = atMs;
            minute(Math.floorDiv(atMs, MINUTE) * MINUTE).samples++;
        }
    }

    /**
     * Adds a counter's sample; returns the interval it joined to the one before, or null (none before, one further
     * back than {@code maxGapMs}, or this one already read).
     */
    long[] count(HostReading r, long maxGapMs) {
        String key = r.slot().ordinal() + "|" + r.series();
        Last prev = last.get(key);
        if (prev != null && r.atMs() <= prev.atMs()) {
            return null; // a sample already read, or older than one read: Prometheus keeps the first
        }
        last.put(key, new Last(r.atMs(), r.value()));
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
            Open minute = minute(m);
            minute.amounts[slot] += increase * overlap / (to - from);
            minute.counted[slot] = true;
        }
        return new long[] {from, to};
    }

    /**
     * Counts as covered the time the row's joined intervals span, each moment once: a row's series are scraped
     * together, so the time between two scrapes is covered however many series joined across it.
     */
    void cover(List<long[]> intervals) {
        intervals.sort(Comparator.comparingLong(i -> i[0]));
        long from = Long.MIN_VALUE;
        long to = Long.MIN_VALUE;
        for (long[] i : intervals) {
            if (i[0] > to) {
                coverSpan(from, to);
                from = i[0];
            }
            to = Math.max(to, i[1]);
        }
        coverSpan(from, to);
    }

    private void coverSpan(long from, long to) {
        if (from == Long.MIN_VALUE || to <= from) {
            return;
        }
        for (long m = Math.floorDiv(from, MINUTE) * MINUTE; m < to; m += MINUTE) {
            long overlap = Math.min(to, m + MINUTE) - Math.max(from, m);
            if (overlap > 0) {
                Open minute = minute(m);
                minute.coveredMs = (int) Math.min(MINUTE, minute.coveredMs + overlap);
            }
        }
    }

    /** Keeps a gauge's latest reading in its minute, and as the row's latest when that minute is its last open one. */
    void gauge(HostReading r) {
        Open minute = minute(Math.floorDiv(r.atMs(), MINUTE) * MINUTE);
        int slot = r.slot().ordinal();
        if (r.atMs() >= minute.gaugeAtMs[slot]) {
            minute.gaugeAtMs[slot] = r.atMs();
            minute.gauges[slot] = r.value();
        }
        if (open.lastKey() == Math.floorDiv(r.atMs(), MINUTE) * MINUTE) {
            gauges[slot] = r.value();
        }
    }

    /** Closes the open minutes that end at or before {@code until}; a minute no counter covered is dropped. */
    void close(long until, List<HostTrack.Minute> closed) {
        for (Iterator<Map.Entry<Long, Open>> it = open.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Open> e = it.next();
            if (e.getKey() + MINUTE > until) {
                break;
            }
            Open o = e.getValue();
            if (o.coveredMs > 0) {
                for (int g = 0; g < o.gauges.length; g++) {
                    if (Double.isNaN(o.gauges[g])) {
                        o.gauges[g] = gauges[g];
                    }
                }
                closed.add(new HostTrack.Minute(namespace, pod, container, e.getKey(), o.amounts, o.counted,
                        o.coveredMs, o.gauges, o.samples));
            }
            it.remove();
        }
    }
}
