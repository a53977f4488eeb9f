package io.gpumeter.ledger.triage.repository;

import io.gpumeter.ledger.governance.repository.QueueBookRepository.StoredItem;
import io.gpumeter.ledger.governance.repository.QueueBookRepository;
import io.gpumeter.ledger.triage.domain.Holding;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.ledger.repository.Columns.offset;

/** What a tenant's read of its workloads reads: its namespaces, its queue states, its holdings, its queue places. */
@ApplicationScoped
public class TenantWorkloadRepository {

    private final Pool pool;

    public TenantWorkloadRepository(Pool pool) {
        this.pool = pool;
    }

    /** A namespace of a cluster. */
    public record Space(String cluster, String namespace) {
    }

    /**
     * The namespaces that may be the tenant's: those whose tenant label ever named it, and those named like it (a
     * namespace without the label is its own tenant). The caller keeps those whose tenant at the instant is it.
     */
    public Uni<List<Space>> candidates(String cluster, String tenantLabel, String tenant) {
        return pool.preparedQuery("""
                        SELECT DISTINCT cluster, name AS namespace FROM ledger.namespace_fact
                        WHERE ($1::text IS NULL OR cluster = $1) AND (payload->'labels'->>$2 = $3 OR name = $3)
                        UNION
                        SELECT DISTINCT cluster, namespace FROM ledger.gov_queue_item
                        WHERE ($1::text IS NULL OR cluster = $1) AND namespace = $3
                        ORDER BY 1, 2""")
                .execute(Tuple.of(cluster, tenantLabel, tenant))
                .map(rows -> {
                    List<Space> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new Space(r.getString("cluster"), r.getString("namespace"))));
                    return out;
                });
    }

    /**
     * One queue state of the tenant's as the queue book stores it (its ClusterQueue its own or the one its LocalQueue
     * feeds), with its newest queue place.
     */
    public record Item(StoredItem stored, Integer positionInClusterQueue, Integer positionInLocalQueue) {
    }

    /** The queue states (not finished, not deleted) of these namespaces. */
    public Uni<List<Item>> items(List<Space> spaces) {
        if (spaces.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return pool.preparedQuery(QueueBookRepository.LOCAL_QUEUES + """
                        SELECT w.*, coalesce(w.cluster_queue, lq.cq) AS cq, p.position_cq, p.position_lq
                        FROM unnest($1::text[], $2::text[]) AS s(cluster, namespace)
                        JOIN ledger.gov_queue_item w ON w.cluster = s.cluster AND w.namespace = s.namespace
                        LEFT JOIN lq ON lq.cluster = w.cluster AND lq.namespace = w.namespace AND lq.name = w.local_queue
                        LEFT JOIN LATERAL (SELECT position_cq, position_lq FROM ledger.gov_pending_position pp
                                           WHERE w.source = 'KUEUE' AND pp.cluster = w.cluster AND pp.namespace = w.namespace
                                             AND pp.workload = w.name ORDER BY observed_at DESC LIMIT 1) p ON true
                        WHERE w.state NOT IN ('FINISHED', 'DELETED')
                        ORDER BY w.waiting_since NULLS LAST, w.namespace, w.name""")
                .execute(Tuple.of(spaces.stream().map(Space::cluster).toArray(String[]::new),
                        spaces.stream().map(Space::namespace).toArray(String[]::new)))
                .map(rows -> {
                    List<Item> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new Item(QueueBookRepository.storedItem(r), r.getInteger("position_cq"),
                                r.getInteger("position_lq")));
                    }
                    return out;
                });
    }

    /** A unit held, and the cluster it is held in. */
    public record Held(String cluster, Holding holding) {
    }

    /** The units booked to the tenant at the instant. */
    public Uni<List<Held>> holdings(String cluster, String tenant, Instant at) {
        return pool.preparedQuery("""
                        SELECT * FROM ledger.allocation_segment
                        WHERE tenant = $1 AND ($2::text IS NULL OR cluster = $2) AND seg_start <= $3 AND (seg_end IS NULL OR seg_end > $3)
                        ORDER BY namespace, pod, unit_index""")
                .execute(Tuple.of(tenant, cluster, offset(at)))
                .map(rows -> {
                    List<Held> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new Held(r.getString("cluster"), HoldingRepository.holding(r))));
                    return out;
                });
    }
}
