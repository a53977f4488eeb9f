package io.gpumeter.ledger.triage.pending;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.ledger.governance.repository.PodStatusVersions;
import io.gpumeter.ledger.repository.StoredPayloads;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.repository.Columns.offset;

/**
 * The facts a wait is judged by, as they stood at an instant, each in one read for every object at once: the nodes'
 * statuses, the device plugins' pods, the newest views of pods and versions of Workloads, the ClusterQueues and the
 * pending positions. A {@code cluster} of null reads every cluster.
 */
@ApplicationScoped
public class WaitFactsRepository {

    /** The newest version of an object by an instant, as every read "at" orders versions. */
    private static final String LATEST_FIRST = "revision DESC NULLS LAST, observed_at DESC, event_type = 'DELETED'";

    private final Pool pool;
    private final ObjectMapper json;

    public WaitFactsRepository(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    /** A fact with the cluster it was stored under. */
    public record InCluster<T>(String cluster, T fact) {
    }

    /** The newest status version of every node by {@code at}, deletions included. */
    public Uni<List<InCluster<NodeStatusFact>>> nodeStatuses(String cluster, Instant at) {
        return pool.preparedQuery("""
                        SELECT cluster, p FROM (SELECT DISTINCT ON (cluster, name) cluster,
                               convert_to(payload::text, 'UTF8') AS p FROM ledger.gov_node_status_fact
                        WHERE observed_at <= $1 AND ($2::text IS NULL OR cluster = $2)
                        ORDER BY cluster, name, """ + LATEST_FIRST + ") latest")
                .execute(Tuple.of(offset(at), cluster))
                .map(rows -> inCluster(rows, NodeStatusFact.class));
    }

    /** The newest version by {@code at} of every pod of these GPU-stack components, deletions included. */
    public Uni<List<InCluster<StackPodFact>>> stackPods(String cluster, Instant at, Collection<String> components) {
        return pool.preparedQuery("""
                        SELECT cluster, p FROM (SELECT DISTINCT ON (cluster, namespace, name) cluster,
                               convert_to(payload::text, 'UTF8') AS p FROM ledger.gov_stack_pod_fact
                        WHERE observed_at <= $1 AND ($2::text IS NULL OR cluster = $2) AND component = ANY($3)
                        ORDER BY cluster, namespace, name, """ + LATEST_FIRST + ") latest")
                .execute(Tuple.of(offset(at), cluster, components.toArray(String[]::new)))
                .map(rows -> inCluster(rows, StackPodFact.class));
    }

    /** The newest governance view by {@code at} of each pod, keyed {@code cluster|uid}. */
    public Uni<Map<String, PodStatusFact>> podViews(Collection<String[]> clusterAndUid, Instant at) {
        if (clusterAndUid.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery("SELECT DISTINCT ON (cluster, uid) cluster, uid, " + PodStatusVersions.COLUMNS
                        + " FROM ledger.pod_status_version"
                        + " WHERE (cluster, uid) IN (SELECT * FROM unnest($1::text[], $2::text[])) AND observed_at <= $3"
                        + " ORDER BY cluster, uid, observed_at DESC, length(resource_version) DESC, resource_version DESC,"
                        + " event_type = 'DELETED' DESC")
                .execute(Tuple.of(first(clusterAndUid), second(clusterAndUid), offset(at)))
                .map(rows -> {
                    Map<String, PodStatusFact> out = new HashMap<>();
                    for (Row r : rows) {
                        out.put(r.getString("cluster") + "|" + r.getString("uid"), PodStatusVersions.decode(json, r));
                    }
                    return out;
                });
    }

    /** The newest version by {@code at} of each Workload, keyed {@code cluster|uid}. */
    public Uni<Map<String, WorkloadFact>> workloads(Collection<String[]> clusterAndUid, Instant at) {
        if (clusterAndUid.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery("""
                        SELECT DISTINCT ON (cluster, uid) cluster, uid, convert_to(payload::text, 'UTF8') AS p
                        FROM ledger.gov_workload_fact
                        WHERE (cluster, uid) IN (SELECT * FROM unnest($1::text[], $2::text[])) AND observed_at <= $3
                        ORDER BY cluster, uid, observed_at DESC, length(resource_version) DESC, resource_version DESC""")
                .execute(Tuple.of(first(clusterAndUid), second(clusterAndUid), offset(at)))
                .map(rows -> {
                    Map<String, WorkloadFact> out = new HashMap<>();
                    for (Row r : rows) {
                        out.put(r.getString("cluster") + "|" + r.getString("uid"), StoredPayloads.decode(json, r, WorkloadFact.class));
                    }
                    return out;
                });
    }

    /** The uids of a namespace's Workloads owned by {@code kind/name}, newest first. */
    public Uni<List<String>> workloadsOwnedBy(String cluster, String namespace, String kind, String name) {
        return pool.preparedQuery("""
                        SELECT uid, max(observed_at) AS seen FROM ledger.gov_workload_fact
                        WHERE cluster = $1 AND namespace = $2 AND payload->'owner'->>'kind' = $3
                          AND payload->'owner'->>'name' = $4
                        GROUP BY uid ORDER BY seen DESC""")
                .execute(Tuple.of(cluster, namespace, kind, name))
                .map(rows -> {
                    List<String> out = new ArrayList<>();
                    rows.forEach(r -> out.add(r.getString("uid")));
                    return out;
                });
    }

    /** The uids of a namespace's pods owned by {@code kind/name} (their governance views' owner). */
    public Uni<List<String>> podsOwnedBy(String cluster, String namespace, String kind, String name) {
        return uids("SELECT DISTINCT uid FROM ledger." + PodStatusVersions.RELATION
                + " WHERE cluster = $1 AND namespace = $2 AND owner_kind = $3 AND owner_name = $4", cluster, namespace, kind, name);
    }

    /** The uids of a namespace's PodGroups owned by {@code kind/name}. */
    public Uni<List<String>> podGroupsOwnedBy(String cluster, String namespace, String kind, String name) {
        return uids("""
                SELECT DISTINCT uid FROM ledger.gov_pod_group_fact WHERE cluster = $1 AND namespace = $2
                  AND payload->'owner'->>'kind' = $3 AND payload->'owner'->>'name' = $4""", cluster, namespace, kind, name);
    }

    private Uni<List<String>> uids(String sql, String cluster, String namespace, String kind, String name) {
        return pool.preparedQuery(sql).execute(Tuple.of(cluster, namespace, kind, name)).map(rows -> {
            List<String> out = new ArrayList<>();
            rows.forEach(r -> out.add(r.getString("uid")));
            return out;
        });
    }

    /** The newest version by {@code at} of every ClusterQueue not deleted by then, keyed {@code cluster|name}. */
    public Uni<Map<String, QueueObjectFact>> clusterQueues(String cluster, Instant at) {
        return pool.preparedQuery("""
                        SELECT cluster, p FROM (SELECT DISTINCT ON (cluster, name) cluster, event_type,
                               convert_to(payload::text, 'UTF8') AS p FROM ledger.gov_queue_object_fact
                        WHERE kind = 'CLUSTER_QUEUE' AND observed_at <= $1 AND ($2::text IS NULL OR cluster = $2)
                        ORDER BY cluster, name, """ + LATEST_FIRST + ") latest WHERE event_type <> 'DELETED'")
                .execute(Tuple.of(offset(at), cluster))
                .map(rows -> {
                    Map<String, QueueObjectFact> out = new HashMap<>();
                    for (InCluster<QueueObjectFact> q : inCluster(rows, QueueObjectFact.class)) {
                        out.put(q.cluster() + "|" + q.fact().name(), q.fact());
                    }
                    return out;
                });
    }

    /** Each Workload's newest place in its queues read by {@code at}, keyed {@code cluster|namespace|workload}. */
    public Uni<Map<String, Position>> positions(String cluster, Instant at) {
        return pool.preparedQuery("""
                        SELECT DISTINCT ON (cluster, namespace, workload) * FROM ledger.gov_pending_position
                        WHERE observed_at <= $1 AND ($2::text IS NULL OR cluster = $2)
                        ORDER BY cluster, namespace, workload, observed_at DESC, cluster_queue""")
                .execute(Tuple.of(offset(at), cluster))
                .map(rows -> {
                    Map<String, Position> out = new HashMap<>();
                    for (Row r : rows) {
                        out.put(r.getString("cluster") + "|" + r.getString("namespace") + "|" + r.getString("workload"),
                                new Position(r.getString("cluster_queue"), new KueueQueue.Position(r.getInteger("position_cq"),
                                        r.getInteger("position_lq"), r.getInteger("priority"),
                                        r.getOffsetDateTime("observed_at").withOffsetSameInstant(ZoneOffset.UTC).toInstant())));
                    }
                    return out;
                });
    }

    /** A place in the queues and the ClusterQueue it was read in. */
    public record Position(String clusterQueue, KueueQueue.Position place) {
    }

    private <T> List<InCluster<T>> inCluster(Iterable<Row> rows, Class<T> type) {
        List<InCluster<T>> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(new InCluster<>(r.getString("cluster"), StoredPayloads.decode(json, r, type)));
        }
        return out;
    }

    private static String[] first(Collection<String[]> pairs) {
        return pairs.stream().map(p -> p[0]).toArray(String[]::new);
    }

    private static String[] second(Collection<String[]> pairs) {
        return pairs.stream().map(p -> p[1]).toArray(String[]::new);
    }
}
