package io.gpumeter.ledger.governance.domain;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * Where a version stands among the versions of one object, or of several views of one object (a Node's labels and
 * its status share its resourceVersions): by resourceVersion where numeric, then by observation, as
 * {@link Versions#ordered} orders them.
 */
record VersionKey(Long revision, Instant observedAt) implements Comparable<VersionKey> {

    private static final Comparator<VersionKey> ORDER = Comparator
            .comparing(VersionKey::revision, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(VersionKey::observedAt, Comparator.nullsFirst(Comparator.naturalOrder()));

    static VersionKey of(String resourceVersion, Instant observedAt) {
        return new VersionKey(Versions.revision(resourceVersion), observedAt);
    }

    @Override
    public int compareTo(VersionKey o) {
        return ORDER.compare(this, o);
    }

    /** The last of {@code ordered} (sorted by key) at or before {@code key}; null when none is. */
    static <T> T latestAtOrBefore(List<T> ordered, Function<T, VersionKey> keyOf, VersionKey key) {
        int lo = 0;
        int hi = ordered.size() - 1;
        T found = null;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (keyOf.apply(ordered.get(mid)).compareTo(key) <= 0) {
                found = ordered.get(mid);
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }
}
