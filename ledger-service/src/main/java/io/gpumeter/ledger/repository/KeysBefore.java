package io.gpumeter.ledger.repository;

import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The keys (and observation times) a version relation held before a batch, for the uids they were read for
 * ({@link VersionsInHand}, {@link PodKeysBefore}).
 */
public final class KeysBefore {

    record Stored(String resourceVersion, String eventType, Instant observedAt) {
    }

    private final Set<String> readFor;
    private final Map<String, List<Stored>> byUid = new HashMap<>();

    public KeysBefore(Set<String> readFor) {
        this.readFor = readFor;
    }

    /** Adds a row of (uid, resource_version, event_type, observed_at). */
    public void add(Row row) {
        if (!readFor.contains(row.getString("uid"))) {
            throw new IllegalArgumentException("keys of " + row.getString("uid") + " were not asked for");
        }
        byUid.computeIfAbsent(row.getString("uid"), u -> new ArrayList<>())
                .add(new Stored(row.getString("resource_version"), row.getString("event_type"),
                        row.getOffsetDateTime("observed_at").toInstant()));
    }

    /** What was stored of this object, empty for none; refused for an object the keys were not read for. */
    Optional<List<Stored>> of(String uid) {
        if (!readFor.contains(uid)) {
            throw new IllegalStateException("the stored keys of " + uid + " were not read: its versions in hand"
                    + " would all count as new");
        }
        return Optional.ofNullable(byUid.get(uid));
    }
}
