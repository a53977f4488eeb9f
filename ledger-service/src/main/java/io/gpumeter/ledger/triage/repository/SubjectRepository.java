package io.gpumeter.ledger.triage.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.gpumeter.ledger.governance.repository.Sql.instant;

/** Where a triage's subject is stored: each object of its name, the cluster and uid it has there, and when it was seen. */
@ApplicationScoped
public class SubjectRepository {

    private final Pool pool;

    public SubjectRepository(Pool pool) {
        this.pool = pool;
    }

    /** A stored object: its cluster, uid and when it was first and last seen. */
    public record Located(String cluster, String uid, Instant firstSeen, Instant lastSeen) {
    }

    /** Every pod of this namespace and name (any cluster where none is given), by its governance or metering versions. */
    public Uni<List<Located>> locatePod(String cluster, String namespace, String name) {
        return pool.preparedQuery("""
                        SELECT cluster, uid, min(observed_at) AS first_seen, max(observed_at) AS last_seen FROM (
                            SELECT cluster, uid, observed_at FROM ledger.gov_pod_status_fact
                            WHERE namespace = $1 AND name = $2 AND ($3::text IS NULL OR cluster = $3)
                            UNION ALL
                            SELECT cluster, uid, observed_at FROM ledger.pod_fact
                            WHERE namespace = $1 AND name = $2 AND ($3::text IS NULL OR cluster = $3)) p
                        GROUP BY cluster, uid ORDER BY last_seen DESC, cluster, uid""")
                .execute(Tuple.of(namespace, name, cluster))
                .map(SubjectRepository::located);
    }

    /** Every Workload or PodGroup ({@code table}) of this namespace and name. */
    public Uni<List<Located>> locate(String table, String cluster, String namespace, String name) {
        if (!Set.of("gov_workload_fact", "gov_pod_group_fact").contains(table)) {
            throw new IllegalArgumentException("not a queue object table: " + table);
        }
        return pool.preparedQuery("SELECT cluster, uid, min(observed_at) AS first_seen, max(observed_at) AS last_seen FROM ledger."
                        + table + " WHERE namespace = $1 AND name = $2 AND ($3::text IS NULL OR cluster = $3)"
                        + " GROUP BY cluster, uid ORDER BY last_seen DESC, cluster, uid")
                .execute(Tuple.of(namespace, name, cluster))
                .map(SubjectRepository::located);
    }

    /** The clusters that know a node by any of its views, newest first. */
    public Uni<List<Located>> locateNode(String cluster, String node) {
        return pool.preparedQuery("""
                        SELECT cluster, name AS uid, min(observed_at) AS first_seen, max(observed_at) AS last_seen FROM (
                            SELECT cluster, name, observed_at FROM ledger.node_fact WHERE name = $1 AND ($2::text IS NULL OR cluster = $2)
                            UNION ALL
                            SELECT cluster, name, observed_at FROM ledger.gov_node_status_fact
                            WHERE name = $1 AND ($2::text IS NULL OR cluster = $2)) n
                        GROUP BY cluster, name ORDER BY last_seen DESC, cluster""")
                .execute(Tuple.of(node, cluster))
                .map(SubjectRepository::located);
    }

    private static List<Located> located(RowSet<Row> rows) {
        List<Located> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(new Located(r.getString("cluster"), r.getString("uid"), instant(r.getOffsetDateTime("first_seen")),
                    instant(r.getOffsetDateTime("last_seen"))));
        }
        return out;
    }
}
