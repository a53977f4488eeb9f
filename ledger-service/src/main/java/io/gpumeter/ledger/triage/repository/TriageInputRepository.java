package io.gpumeter.ledger.triage.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.PendingPositionFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.XidFact;
import io.gpumeter.ledger.repository.StoredPayloads;
import io.gpumeter.ledger.triage.domain.StoredMinute;
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
import static io.gpumeter.ledger.repository.Columns.times;

/**
 * The reads of a triage's inputs that its diagnosis reads through other books: the raw governance facts behind the
 * incidents, the wait classes and the GPU stack, and the metering facts and usage minutes behind the holdings and the
 * cards' memory, each one bulk statement of one table.
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

    /**
     * The metering versions stored up to {@code to} of these pods and of every pod that held a unit at one of the
     * instants on these nodes or cards — anywhere in the cluster with {@code fleet} (what a wait is judged against) —
     * which the holdings the triage reads were booked from.
     */
    public Uni<List<PodFact>> podFacts(String cluster, Collection<String> uids, Collection<String> nodes,
                                       Collection<String> cards, boolean fleet, List<Instant> instants, Instant to) {
        return pool.preparedQuery("""
                        SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.pod_fact
                        WHERE cluster = $1 AND observed_at <= $7 AND (uid = ANY($2) OR uid IN (
                            SELECT s.pod_uid FROM ledger.allocation_segment s CROSS JOIN unnest($5::timestamptz[]) AS t(at)
                            WHERE s.cluster = $1 AND ($6 OR s.node = ANY($3) OR s.gpu_uuid = ANY($4))
                              AND s.seg_start <= t.at AND (s.seg_end IS NULL OR s.seg_end > t.at)))
                        ORDER BY observed_at, uid, resource_version, event_type""")
                .execute(Tuple.from(List.of(cluster, uids.toArray(String[]::new), nodes.toArray(String[]::new),
                        cards.toArray(String[]::new), times(instants, t -> t), fleet, offset(to))))
                .map(rows -> StoredPayloads.decode(json, rows, PodFact.class));
    }

    /**
     * The versions stored up to {@code to} of these nodes, with their HAMi registrations, and with {@code fleet} each
     * other node's newest version too.
     */
    public Uni<List<NodeFact>> nodeFacts(String cluster, Collection<String> nodes, boolean fleet, Instant to) {
        return pool.preparedQuery("""
                        SELECT p FROM (
                            SELECT convert_to(payload::text, 'UTF8') AS p, observed_at, name FROM ledger.node_fact
                            WHERE cluster = $1 AND name = ANY($2) AND observed_at <= $3
                            UNION
                            SELECT p, observed_at, name FROM (SELECT DISTINCT ON (name) convert_to(payload::text, 'UTF8') AS p,
                                   observed_at, name FROM ledger.node_fact WHERE cluster = $1 AND $4 AND observed_at <= $3
                                   ORDER BY name, """ + LATEST_FIRST + """
                            ) latest) n
                        ORDER BY observed_at, name""")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new), offset(to), fleet))
                .map(rows -> StoredPayloads.decode(json, rows, NodeFact.class));
    }

    /** The versions stored up to {@code to} of these namespaces: the tenant, team and project their labels name. */
    public Uni<List<NamespaceFact>> namespaceFacts(String cluster, Collection<String> namespaces, Instant to) {
        return pool.preparedQuery("""
                        SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.namespace_fact
                        WHERE cluster = $1 AND name = ANY($2) AND observed_at <= $3 ORDER BY observed_at, name""")
                .execute(Tuple.of(cluster, namespaces.toArray(String[]::new), offset(to)))
                .map(rows -> StoredPayloads.decode(json, rows, NamespaceFact.class));
    }

    /**
     * The stored minutes of these cards' memory series (those {@link CardMemoryRepository#memoryMinutes} reads: the
     * card's, HAMi's per container, nvidia-smi's per process) in any of the windows {@code [from[i], to[i]]}.
     */
    public Uni<List<StoredMinute>> memoryMinutes(String cluster, Collection<String> cards, List<Instant> from,
                                                 List<Instant> to) {
        Instant first = from.stream().min(Instant::compareTo).orElseThrow();
        Instant last = to.stream().max(Instant::compareTo).orElseThrow();
        return pool.preparedQuery("""
                        SELECT gpu_uuid, scope, scope_key, field, minute, sum, max, seconds FROM ledger.usage_minute u
                        WHERE cluster = $1 AND gpu_uuid = ANY($2) AND minute >= $5 AND minute <= $6
                          AND (scope = 'DEVICE' AND field IN ('FB_USED_MIB', 'FB_FREE_MIB', 'FB_RESERVED_MIB')
                               OR scope = 'CONTAINER' AND field IN ('VGPU_MEMORY_USED_MIB', 'VGPU_MEMORY_LIMIT_MIB')
                               OR scope = 'PROCESS' AND field = 'FB_USED_MIB')
                          AND EXISTS (SELECT 1 FROM unnest($3::timestamptz[], $4::timestamptz[]) AS w(f, t)
                                      WHERE u.minute >= w.f AND u.minute <= w.t)
                        ORDER BY gpu_uuid, minute, scope, scope_key, field""")
                .execute(Tuple.from(List.of(cluster, cards.toArray(String[]::new), times(from, t -> t), times(to, t -> t),
                        offset(first), offset(last))))
                .map(rows -> {
                    List<StoredMinute> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new StoredMinute(r.getString("gpu_uuid"), r.getString("scope"), r.getString("scope_key"),
                                r.getString("field"), r.getOffsetDateTime("minute").toInstant(), r.getDouble("sum"),
                                r.getDouble("max"), r.getLong("seconds")));
                    }
                    return out;
                });
    }
}
