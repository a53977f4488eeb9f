package io.gpumeter.ledger.governance.domain;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/** Orders observed versions of one object: by resourceVersion where numeric (etcd revisions), then observation. */
final class Versions {

    private Versions() {
    }

    static <T> List<T> ordered(List<T> versions, Function<T, String> resourceVersion, Function<T, Instant> observedAt) {
        return versions.stream()
                .sorted(Comparator.comparing((T v) -> revision(resourceVersion.apply(v)), Comparator.nullsFirst(Comparator.naturalOrder()))
                        .thenComparing(observedAt, Comparator.nullsFirst(Comparator.naturalOrder())))
                .toList();
    }

    static Long revision(String resourceVersion) {
        if (resourceVersion == null) {
            return null;
        }
        try {
            return Long.parseLong(resourceVersion);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
