package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import java.util.Set;

/**
 * The keys a bundle's pods had stored before it, read once for both of its halves: the pod versions (pod_fact) and
 * the governance views (pod_status_version: those pod versions that carry a view, and the views kept on their own).
 * Read apart, the two halves each looked every uid of the bundle up in pod_fact's key; read together, once.
 * Read under both cluster locks, before either half writes a pod version or a view.
 */
public record PodKeysBefore(KeysBefore podVersions, KeysBefore podStatuses) {

    public static Uni<PodKeysBefore> read(SqlClient db, String cluster, Set<String> uids) {
        PodKeysBefore keys = new PodKeysBefore(new KeysBefore(uids), new KeysBefore(uids));
        if (uids.isEmpty()) {
            return Uni.createFrom().item(keys);
        }
        return db.preparedQuery(sql())
                .execute(Tuple.of(cluster, uids.toArray(String[]::new)))
                .map(rows -> {
                    for (Row row : rows) {
                        if (!row.getBoolean("on_its_own")) {
                            keys.podVersions().add(row);
                        }
                        if (row.getBoolean("a_view")) {
                            keys.podStatuses().add(row);
                        }
                    }
                    return keys;
                });
    }

    /**
     * The rows of both relations, pod_status_version's filter spelled out on its two tables, each uid looked up in
     * each table's key on its own (a lateral subquery the planner cannot flatten, OFFSET 0). As one filter,
     * {@code uid = ANY($2)}, the planner weighed a bundle's ten thousand uids against a table of a few hundred
     * thousand versions, expected a tenth of it to match and scanned it all, in every bundle, where nearly none do.
     */
    static String sql() {
        return """
                SELECT f.* FROM unnest($2::text[]) AS k(uid) CROSS JOIN LATERAL (
                    SELECT uid, resource_version, event_type, observed_at, status IS NOT NULL AS a_view, false AS on_its_own
                    FROM ledger.pod_fact WHERE cluster = $1 AND uid = k.uid OFFSET 0) f
                UNION ALL
                SELECT g.* FROM unnest($2::text[]) AS k(uid) CROSS JOIN LATERAL (
                    SELECT uid, resource_version, event_type, observed_at, true AS a_view, true AS on_its_own
                    FROM ledger.gov_pod_status_fact WHERE cluster = $1 AND uid = k.uid OFFSET 0) g""";
    }
}
