package io.gpumeter.collector.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Every node's tracks, one per cluster, node and source. A body is applied under its track's lock and the minutes it
 * closes are handed on before the track moves on: when handing them on fails, the track stays as it was, so the
 * body sent again yields them again. Bodies of different nodes are applied at once.
 */
public final class HostTracks {

    /** One track's identity. */
    public record Key(String cluster, String node, HostSource source) {
    }

    /** A minute closed on a track. */
    public record Closed(Key key, HostTrack.Minute minute) {
    }

    private static final class Holder {
        HostTrack track;

        Holder(HostTrack track) {
            this.track = track;
        }
    }

    private final Map<Key, Holder> tracks = new ConcurrentHashMap<>();
    private final long maxGapMs;

    public HostTracks(long maxGapMs) {
        this.maxGapMs = maxGapMs;
    }

    /**
     * Applies one body's readings; {@code deliver} receives the minutes they closed (possibly none) and may throw,
     * leaving the track unchanged. Returns how many minutes closed.
     */
    public int apply(Key key, List<HostReading> readings, long heardMs, Consumer<List<Closed>> deliver) {
        while (true) {
            Holder holder = tracks.computeIfAbsent(key, k -> new Holder(new HostTrack(maxGapMs)));
            synchronized (holder) {
                if (tracks.get(key) != holder) {
                    continue; // a sweep forgot it meanwhile
                }
                return apply(holder, key, readings, heardMs, deliver);
            }
        }
    }

    private static int apply(Holder holder, Key key, List<HostReading> readings, long heardMs,
                             Consumer<List<Closed>> deliver) {
        HostTrack.Applied applied = holder.track.apply(readings, heardMs);
        List<Closed> closed = applied.closed().stream().map(m -> new Closed(key, m)).toList();
        deliver.accept(closed);
        holder.track = applied.next();
        return closed.size();
    }

    /**
     * Closes what rows silent for longer than the largest gap still hold open, and forgets tracks left empty, as of
     * {@code nowMs}; a track whose minutes could not be handed on is kept as it was for the next sweep.
     */
    public int sweep(long nowMs, Consumer<List<Closed>> deliver) {
        int closed = 0;
        for (Map.Entry<Key, Holder> e : new ArrayList<>(tracks.entrySet())) {
            Holder holder = e.getValue();
            synchronized (holder) {
                HostTrack.Applied applied = holder.track.sweep(nowMs);
                if (applied.closed().isEmpty() && !applied.next().empty()) {
                    continue;
                }
                deliver.accept(applied.closed().stream().map(m -> new Closed(e.getKey(), m)).toList());
                holder.track = applied.next();
                closed += applied.closed().size();
                if (holder.track.empty()) {
                    tracks.remove(e.getKey(), holder);
                }
            }
        }
        return closed;
    }

    /** Rows tracked over every track. */
    public int rows() {
        return tracks.values().stream().mapToInt(h -> {
            synchronized (h) {
                return h.track.rows();
            }
        }).sum();
    }
}
