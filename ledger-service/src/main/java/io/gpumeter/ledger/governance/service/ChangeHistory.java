package io.gpumeter.ledger.governance.service;

import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.repository.Chunks;
import io.gpumeter.ledger.repository.ClusterLock;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;

/**
 * Fills the change book from history stored before it existed (node label versions, queue object versions) and
 * derives it again when its rules change: at start, every cluster with stored versions and no derivation under the
 * current rules is derived whole, a slice of nodes per transaction under the cluster's governance lock, then marked.
 * Replicas may do it at once: each slice is derived from the stored versions alone, so the last one writes what
 * the first one did.
 */
@ApplicationScoped
public class ChangeHistory {

    private static final Logger LOG = Logger.getLogger(ChangeHistory.class);

    private final Pool pool;
    private final ChangeBook book;
    private final boolean atStart;

    public ChangeHistory(Pool pool, ChangeBook book, LedgerConfig config) {
        this.pool = pool;
        this.book = book;
        this.atStart = config.changes().deriveHistoryAtStart();
    }

    void onStart(@Observes StartupEvent event) {
        if (atStart) {
            deriveAll().subscribe().with(
                    clusters -> LOG.infof("change book derived from the stored history of %d cluster(s)", clusters),
                    failure -> LOG.error("the change book could not be derived from the stored history", failure));
        }
    }

    /** Derives every cluster not yet derived under the current rules; answers how many. */
    public Uni<Integer> deriveAll() {
        return pool.preparedQuery("""
                        SELECT c.cluster FROM (
                            SELECT DISTINCT cluster FROM ledger.node_fact
                            UNION SELECT DISTINCT cluster FROM ledger.gov_queue_object_fact
                            UNION SELECT DISTINCT cluster FROM ledger.gov_node_status_fact
                            UNION SELECT DISTINCT cluster FROM ledger.gov_stack_workload_fact
                            UNION SELECT DISTINCT cluster FROM ledger.gov_stack_pod_fact
                            UNION SELECT DISTINCT cluster FROM ledger.gov_driver_sighting) c
                        WHERE NOT EXISTS (SELECT 1 FROM ledger.gov_change_derivation d WHERE d.cluster = c.cluster AND d.rules = $1)
                        ORDER BY 1""")
                .execute(Tuple.of(book.rules()))
                .chain(rows -> {
                    List<String> clusters = column(rows, "cluster");
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (String cluster : clusters) {
                        chain = chain.chain(() -> derive(cluster));
                    }
                    return chain.replaceWith(clusters.size());
                });
    }

    /** Derives one cluster's whole book from its stored versions and marks it derived under the current rules. */
    public Uni<Void> derive(String cluster) {
        return pool.preparedQuery("""
                        SELECT DISTINCT name FROM ledger.node_fact WHERE cluster = $1
                        UNION SELECT DISTINCT name FROM ledger.gov_node_status_fact WHERE cluster = $1
                        UNION SELECT DISTINCT node FROM ledger.gov_stack_pod_fact WHERE cluster = $1 AND node IS NOT NULL
                        UNION SELECT DISTINCT node FROM ledger.gov_driver_sighting WHERE cluster = $1
                        ORDER BY 1""")
                .execute(Tuple.of(cluster))
                .chain(rows -> {
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (List<String> slice : Chunks.of(column(rows, "name"), ChangeBook.NODES_PER_READ)) {
                        chain = chain.chain(() -> pool.withTransaction(conn -> ClusterLock.take(conn, ClusterLock.GOVERNANCE, cluster)
                                .chain(() -> book.deriveNodes(conn, cluster, slice))));
                    }
                    return chain;
                })
                .chain(() -> pool.preparedQuery("""
                                SELECT DISTINCT component FROM ledger.gov_stack_workload_fact WHERE cluster = $1""")
                        .execute(Tuple.of(cluster)))
                .chain(components -> pool.withTransaction(conn -> ClusterLock.take(conn, ClusterLock.GOVERNANCE, cluster)
                        .chain(() -> book.deriveComponents(conn, cluster, column(components, "component")))))
                .chain(() -> pool.preparedQuery("""
                                SELECT DISTINCT kind || '/' || namespace || '/' || name AS q FROM ledger.gov_queue_object_fact
                                WHERE cluster = $1 AND kind IN ('CLUSTER_QUEUE', 'VOLCANO_QUEUE')""")
                        .execute(Tuple.of(cluster)))
                .chain(queues -> pool.withTransaction(conn -> ClusterLock.take(conn, ClusterLock.GOVERNANCE, cluster)
                        .chain(() -> book.deriveQueues(conn, cluster, column(queues, "q")))))
                .chain(() -> pool.preparedQuery("""
                                INSERT INTO ledger.gov_change_derivation (cluster, rules, derived_at) VALUES ($1, $2, now())
                                ON CONFLICT (cluster) DO UPDATE SET rules = excluded.rules, derived_at = excluded.derived_at""")
                        .execute(Tuple.of(cluster, book.rules())))
                .replaceWithVoid();
    }

    private static List<String> column(RowSet<Row> rows, String name) {
        List<String> out = new ArrayList<>();
        rows.forEach(r -> out.add(r.getString(name)));
        return out;
    }
}
