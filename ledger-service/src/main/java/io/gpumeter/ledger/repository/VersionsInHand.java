package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The versions of objects a batch has just stored, kept at hand so that re-deriving those objects reads back only
 * the versions stored before: a replay re-derives its pods mostly from facts it has just written, and decoding them
 * from the database again cost more than deriving them. A stored row is taken from hand when its key (uid, resource
 * version, event type) and observation time (to the microsecond its column keeps) match; every other row is read as
 * stored.
 */
public final class VersionsInHand<T> {

    /** The version tables keyed by (cluster, uid, resource_version, event_type) with an observed_at column. */
    private static final Set<String> TABLES = Set.of("pod_fact", "gov_pod_status_fact");

    private final Map<String, T> byKey = new HashMap<>();
    private final Function<T, Instant> observedAt;

    private VersionsInHand(Function<T, Instant> observedAt) {
        this.observedAt = observedAt;
    }

    public static <T> VersionsInHand<T> none() {
        return new VersionsInHand<>(t -> null);
    }

    public static <T> VersionsInHand<T> of(List<T> facts, Function<T, String> uid, Function<T, String> resourceVersion,
                                           Function<T, String> eventType, Function<T, Instant> observedAt) {
        VersionsInHand<T> hand = new VersionsInHand<>(observedAt);
        for (T fact : facts) {
            hand.byKey.putIfAbsent(key(uid.apply(fact), resourceVersion.apply(fact), eventType.apply(fact)), fact);
        }
        return hand;
    }

    /** Every stored version of these objects of {@code table}, from hand where it can. */
    public Uni<List<T>> read(SqlClient db, String table, String cluster, Collection<String> uids, Class<T> type,
                             ObjectMapper json) {
        if (!TABLES.contains(table)) {
            throw new IllegalArgumentException("not a version table: " + table);
        }
        String[] asked = uids.toArray(String[]::new);
        if (byKey.isEmpty()) {
            return db.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger." + table + " WHERE cluster = $1 AND uid = ANY($2)")
                    .execute(Tuple.of(cluster, asked)).map(rows -> StoredPayloads.decode(json, rows, type));
        }
        return db.preparedQuery("SELECT uid, resource_version, event_type, observed_at FROM ledger." + table
                        + " WHERE cluster = $1 AND uid = ANY($2)")
                .execute(Tuple.of(cluster, asked))
                .chain(keys -> {
                    List<T> found = new ArrayList<>(keys.size());
                    List<String> missingUid = new ArrayList<>();
                    List<String> missingRevision = new ArrayList<>();
                    List<String> missingType = new ArrayList<>();
                    for (Row row : keys) {
                        String uid = row.getString("uid");
                        String revision = row.getString("resource_version");
                        String eventType = row.getString("event_type");
                        T known = byKey.get(key(uid, revision, eventType));
                        Instant at = known == null ? null : observedAt.apply(known);
                        if (at != null && storedAs(at).equals(row.getOffsetDateTime("observed_at").toInstant())) {
                            found.add(known);
                        } else {
                            missingUid.add(uid);
                            missingRevision.add(revision);
                            missingType.add(eventType);
                        }
                    }
                    if (missingUid.isEmpty()) {
                        return Uni.createFrom().item(found);
                    }
                    return db.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger." + table + " WHERE cluster = $1"
                                    + " AND (uid, resource_version, event_type) IN"
                                    + " (SELECT * FROM unnest($2::text[], $3::text[], $4::text[]))")
                            .execute(Tuple.of(cluster, missingUid.toArray(String[]::new),
                                    missingRevision.toArray(String[]::new), missingType.toArray(String[]::new)))
                            .map(rows -> StoredPayloads.decode(json, rows, type, found));
                });
    }

    /**
     * An instant as its timestamptz column holds it: to the microsecond. A collector's clock reads nanoseconds, so
     * comparing the instant in hand with the stored one as they are would never match, and every version just stored
     * would be read back and decoded again.
     */
    static Instant storedAs(Instant at) {
        return at.truncatedTo(ChronoUnit.MICROS);
    }

    private static String key(String uid, String resourceVersion, String eventType) {
        return uid + '\0' + resourceVersion + '\0' + eventType;
    }
}
