package io.gpumeter.collector.host;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The host series of one source on one node, turned into minutes as Prometheus's {@code increase()} would read them:
 * the increase between two consecutive samples of a counter (the later value itself when it is lower, a reset) is
 * spread evenly over the time between them, each minute taking its share and counting that time as covered; two
 * samples further apart than the largest gap are not joined. A minute closes once every row that has it has a sample
 * at or after its end, or its row fell silent. Applying never changes this track: it returns the track that follows,
 * so a body whose minutes could not be delivered leaves nothing behind. Each row's minutes are its {@link HostRow}'s.
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

    /** What applying a body did: the track that follows, and the minutes it closed. */
    public record Applied(HostTrack next, List<Minute> closed) {
    }

    private final Map<String, HostRow> rows;
    private final long maxGapMs;

    /** @param maxGapMs samples of a counter further apart are not joined (Prometheus looks back 5 minutes) */
    public HostTrack(long maxGapMs) {
        this(new HashMap<>(), maxGapMs);
    }

    private HostTrack(Map<String, HostRow> rows, long maxGapMs) {
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
        Map<HostRow, Long> scrapes = new HashMap<>();
        Map<HostRow, List<long[]>> joined = new HashMap<>();
        for (HostReading r : inOrder) {
            HostRow row = next.rows.computeIfAbsent(r.row(), k -> new HostRow(r.namespace(), r.pod(), r.container()));
            row.heardMs = heardMs;
            if (r.slot().counter()) {
                long[] interval = row.count(r, maxGapMs);
                if (interval != null) {
                    joined.computeIfAbsent(row, x -> new ArrayList<>()).add(interval);
                }
                scrapes.merge(row, r.atMs(), Math::max);
            } else {
                row.gauge(r);
            }
        }
        joined.forEach(HostRow::cover);
        scrapes.forEach(HostRow::scraped);
        List<Minute> closed = new ArrayList<>();
        for (Iterator<HostRow> it = next.rows.values().iterator(); it.hasNext(); ) {
            HostRow row = it.next();
            boolean silent = heardMs - row.heardMs > maxGapMs;
            row.close(silent ? Long.MAX_VALUE : row.lastScrapeMs(), closed);
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

    private HostTrack copy() {
        Map<String, HostRow> copied = new HashMap<>(rows.size() * 2);
        rows.forEach((k, r) -> copied.put(k, new HostRow(r)));
        return new HostTrack(copied, maxGapMs);
    }
}
