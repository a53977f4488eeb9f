package io.gpumeter.ledger.history.domain;

import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every version of one pod the ledger has seen, in resourceVersion order, whatever order they arrived in.
 * The pod's allocation interval is a function of this set alone, so replays and reorderings cannot change it.
 */
public final class PodHistory {

    /** resourceVersions are etcd revisions in practice; when one is not numeric, observation time orders. */
    static final Comparator<PodFact> VERSION_ORDER = (a, b) -> {
        Long ra = ResourceVersions.revision(a.resourceVersion());
        Long rb = ResourceVersions.revision(b.resourceVersion());
        int byVersion = ra != null && rb != null ? Long.compare(ra, rb) : a.observedAt().compareTo(b.observedAt());
        if (byVersion != 0) {
            return byVersion;
        }
        return Boolean.compare(a.type() == WatchEventType.DELETED, b.type() == WatchEventType.DELETED);
    };

    private final List<PodFact> versions;

    public PodHistory(List<PodFact> facts) {
        if (facts.isEmpty()) {
            throw new IllegalArgumentException("a pod history needs at least one version");
        }
        List<PodFact> sorted = new ArrayList<>(facts);
        sorted.sort(VERSION_ORDER);
        this.versions = Collections.unmodifiableList(sorted);
    }

    /** Every version, oldest first. */
    public List<PodFact> versions() {
        return versions;
    }

    public PodFact latest() {
        return versions.get(versions.size() - 1);
    }

    /** The version that carries the placement: the latest with HAMi devices, else the latest bound to a node. */
    public Optional<PodFact> placement() {
        for (int i = versions.size() - 1; i >= 0; i--) {
            if (!versions.get(i).vgpus().isEmpty()) {
                return Optional.of(versions.get(i));
            }
        }
        for (int i = versions.size() - 1; i >= 0; i--) {
            if (versions.get(i).nodeName() != null) {
                return Optional.of(versions.get(i));
            }
        }
        return Optional.empty();
    }

    /** When the pod's PodScheduled condition turned True; empty while it was never scheduled. */
    public Optional<Instant> start() {
        return earliest(PodFact::scheduledAt);
    }

    /**
     * The earliest instant {@code field} gives of any version, empty when none gives one. A plain loop: the books of
     * every pod of a replay ask this several times, where a stream was built for each.
     */
    public Optional<Instant> earliest(Function<PodFact, Instant> field) {
        Instant earliest = null;
        for (PodFact version : versions) {
            Instant at = field.apply(version);
            if (at != null && (earliest == null || at.isBefore(earliest))) {
                earliest = at;
            }
        }
        return Optional.ofNullable(earliest);
    }

    /**
     * The end of the allocation: the latest container finish once the last version seen has every container
     * terminated; else the deletion time of a DELETED version, capped at when the deletion was observed (a
     * graceful delete's first deletionTimestamp lies in the future and is never taken); else empty (still held).
     */
    public Optional<Instant> end() {
        PodFact last = latest();
        if (last.allTerminated() && last.lastFinishedAt() != null) {
            return Optional.of(last.lastFinishedAt());
        }
        Instant deleted = null;
        for (PodFact v : versions) {
            if (v.type() == WatchEventType.DELETED) {
                Instant at = v.deletionTimestamp() == null || v.deletionTimestamp().isAfter(v.observedAt())
                        ? v.observedAt() : v.deletionTimestamp();
                if (deleted == null || at.isAfter(deleted)) {
                    deleted = at;
                }
            }
        }
        return Optional.ofNullable(deleted);
    }
}
