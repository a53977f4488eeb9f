package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Where versions of one kind are kept for {@link VersionsInHand}: a table or view of {@link #RELATIONS}, the columns a
 * stored version is read from, how a row of them becomes a version, and the reads of what it holds.
 */
public record VersionRelation<T>(String name, String columns, Function<Row, T> decode) {

    /** The version relations keyed by (cluster, uid, resource_version, event_type) with an observed_at column. */
    private static final Set<String> RELATIONS = Set.of("pod_fact", "pod_status_version");

    public VersionRelation {
        if (!RELATIONS.contains(name)) {
            throw new IllegalArgumentException("not a version relation: " + name);
        }
    }

    /** Versions kept whole as the {@code payload} of {@code name}. */
    public static <T> VersionRelation<T> payloads(String name, Class<T> type, ObjectMapper json) {
        return new VersionRelation<>(name, "convert_to(payload::text, 'UTF8') AS " + StoredPayloads.COLUMN,
                row -> StoredPayloads.decode(json, row, type));
    }

    /** The keys and observation times held for these objects, read in the caller's transaction. */
    Uni<KeysBefore> keysBefore(SqlClient db, String cluster, Set<String> uids) {
        return db.preparedQuery("SELECT uid, resource_version, event_type, observed_at FROM ledger." + name
                        + " WHERE cluster = $1 AND uid = ANY($2)")
                .execute(Tuple.of(cluster, uids.toArray(String[]::new)))
                .map(rows -> {
                    KeysBefore keys = new KeysBefore(uids);
                    for (Row row : rows) {
                        keys.add(row);
                    }
                    return keys;
                });
    }

    /** Adds every stored version of these objects to {@code into}. */
    Uni<List<T>> readAll(SqlClient db, String cluster, Collection<String> uids, List<T> into) {
        return db.preparedQuery("SELECT " + columns + " FROM ledger." + name + " WHERE cluster = $1 AND uid = ANY($2)")
                .execute(Tuple.of(cluster, uids.toArray(String[]::new)))
                .map(rows -> decode(rows, into));
    }

    /** Adds the stored versions of these keys (uid, resource version, event type, pairwise) to {@code into}. */
    Uni<List<T>> readVersions(SqlClient db, String cluster, List<String> uids, List<String> resourceVersions,
                              List<String> eventTypes, List<T> into) {
        return db.preparedQuery("SELECT " + columns + " FROM ledger." + name
                        + " WHERE cluster = $1 AND (uid, resource_version, event_type) IN"
                        + " (SELECT * FROM unnest($2::text[], $3::text[], $4::text[]))")
                .execute(Tuple.of(cluster, uids.toArray(String[]::new), resourceVersions.toArray(String[]::new),
                        eventTypes.toArray(String[]::new)))
                .map(rows -> decode(rows, into));
    }

    private List<T> decode(Iterable<Row> rows, List<T> into) {
        for (Row row : rows) {
            into.add(decode.apply(row));
        }
        return into;
    }
}
