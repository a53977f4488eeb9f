package io.gpumeter.ledger.triage.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.PendingPositionFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.XidFact;
import io.gpumeter.ledger.repository.StoredPayloads;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import static io.gpumeter.ledger.repository.Columns.offset;

/**
 * The reads of a triage's inputs that its diagnosis reads through other books: the raw governance facts behind the
 * incidents, the wait classes and the GPU stack, each one bulk statement of one table.
 */
@ApplicationScoped
public class TriageInputRepository {

    private static final String LATEST_FIRST = "revision DESC NULLS LAST, observed_at DESC, event_type = 'DELETED'";

    private final Pool pool;
    private final ObjectMapper json;

    public TriageInputRepository(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    /** The kernel's Xid reports of these nodes in [from, to]. */
    public Uni<List<XidFact>> xidsOn(String cluster, Collection<String> nodes, Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.gov_xid_fact
                        WHERE cluster = $1 AND node = ANY($2) AND at >= $3 AND at <= $4 ORDER BY at, node, pci_bus_id, code""")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new), offset(from), offset(to)))
                .map(rows -> StoredPayloads.decode(json, rows, XidFact.class));
    }

    /** The driver's announcements of these nodes' cards up to {@code to}. */
    public Uni<List<GpuAddressFact>> addressesOn(String cluster, Collection<String> nodes, Instant to) {
        return pool.preparedQuery("""
                        SELECT node, pci_bus_id, gpu_uuid, at FROM ledger.gov_gpu_address_fact
                        WHERE cluster = $1 AND node = ANY($2) AND at <= $3 ORDER BY at, node, pci_bus_id""")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new), offset(to)))
                .map(rows -> {
                    List<GpuAddressFact> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new GpuAddressFact(r.getString("node"), r.getString("pci_bus_id"), r.getString("gpu_uuid"),
                                r.getOffsetDateTime("at").toInstant()));
                    }
                    return out;
                });
    }

    /** The uids of the Kueue Workloads an owner (a Job) has in a namespace. */
    public Uni<List<String>> workloadsOwnedBy(String cluster, String namespace, String kind, String name) {
        return pool.preparedQuery("""
                        SELECT DISTINCT uid FROM ledger.gov_workload_fact
                        WHERE cluster = $1 AND namespace = $2 AND payload->'owner'->>'kind' = $3 AND payload->'owner'->>'name' = $4""")
                .execute(Tuple.of(cluster, namespace, kind, name))
                .map(rows -> {
                    List<String> out = new ArrayList<>();
                    rows.forEach(r -> out.add(r.getString("uid")));
                    return out;
                });
    }

    /** Each node's newest status version of the cluster up to {@code at} (the fleet a wait is judged against). */
    public Uni<List<NodeStatusFact>> latestStatuses(String cluster, Instant at) {
        return pool.preparedQuery("SELECT p FROM (SELECT DISTINCT ON (name) convert_to(payload::text, 'UTF8') AS p"
                        + " FROM ledger.gov_node_status_fact WHERE cluster = $1 AND observed_at <= $2 ORDER BY name, "
                        + LATEST_FIRST + ") latest")
                .execute(Tuple.of(cluster, offset(at)))
                .map(rows -> StoredPayloads.decode(json, rows, NodeStatusFact.class));
    }

    /** Each stack pod's newest version of the cluster up to {@code at}. */
    public Uni<List<StackPodFact>> latestStackPods(String cluster, Instant at) {
        return pool.preparedQuery("SELECT p FROM (SELECT DISTINCT ON (namespace, name) convert_to(payload::text, 'UTF8') AS p"
                        + " FROM ledger.gov_stack_pod_fact WHERE cluster = $1 AND observed_at <= $2 ORDER BY namespace, name, "
                        + LATEST_FIRST + ") latest")
                .execute(Tuple.of(cluster, offset(at)))
                .map(rows -> StoredPayloads.decode(json, rows, StackPodFact.class));
    }

    /** Each queue object's (ClusterQueue, LocalQueue, Volcano queue…) newest version up to {@code at}. */
    public Uni<List<QueueObjectFact>> latestQueueObjects(String cluster, Instant at) {
        return pool.preparedQuery("SELECT p FROM (SELECT DISTINCT ON (kind, namespace, name) convert_to(payload::text, 'UTF8') AS p"
                        + " FROM ledger.gov_queue_object_fact WHERE cluster = $1 AND observed_at <= $2"
                        + " ORDER BY kind, namespace, name, " + LATEST_FIRST + ") latest")
                .execute(Tuple.of(cluster, offset(at)))
                .map(rows -> StoredPayloads.decode(json, rows, QueueObjectFact.class));
    }

    /** The queue places read of a namespace's Workloads up to {@code at}. */
    public Uni<List<PendingPositionFact>> positions(String cluster, String namespace, Instant at) {
        return pool.preparedQuery("""
                        SELECT * FROM ledger.gov_pending_position
                        WHERE cluster = $1 AND namespace = $2 AND observed_at <= $3 ORDER BY observed_at, workload, cluster_queue""")
                .execute(Tuple.of(cluster, namespace, offset(at)))
                .map(rows -> {
                    List<PendingPositionFact> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new PendingPositionFact(r.getString("cluster_queue"), r.getString("namespace"),
                                r.getString("workload"), r.getString("local_queue"), r.getInteger("priority"),
                                r.getInteger("position_cq"), r.getInteger("position_lq"),
                                r.getOffsetDateTime("observed_at").toInstant()));
                    }
                    return out;
                });
    }
}
