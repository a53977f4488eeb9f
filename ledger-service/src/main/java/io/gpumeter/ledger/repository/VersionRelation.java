package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.mutiny.sqlclient.Row;

import java.util.Set;
import java.util.function.Function;

/**
 * Where versions of one kind are kept for {@link VersionsInHand}: a table or view of {@link #RELATIONS}, the columns a
 * stored version is read from, and how a row of them becomes a version.
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
}
