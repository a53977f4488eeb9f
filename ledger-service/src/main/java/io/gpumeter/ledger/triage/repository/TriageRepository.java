package io.gpumeter.ledger.triage.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.ledger.domain.ContainerMinute;
import io.gpumeter.ledger.domain.GrantFinding;
import io.gpumeter.ledger.domain.HamiCheck;
import io.gpumeter.ledger.governance.repository.IncidentRepository;
import io.gpumeter.ledger.governance.repository.IncidentRepository.StoredIncident;
import io.gpumeter.ledger.governance.repository.PodStatusVersions;
import io.gpumeter.ledger.repository.StoredPayloads;
import io.gpumeter.ledger.triage.domain.Holding;
import io.gpumeter.ledger.triage.domain.MemoryMinute;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.gpumeter.ledger.repository.Columns.offset;

/**
 * The triage's reads of the ledger: each a bulk read of one kind of fact for a subject's pod, pods, nodes or cards
 * (never one statement per item), through the indexes the books keep.
 */
@ApplicationScoped
public class TriageRepository {

    /** How far back the incidents of a subject's nodes are read: the recurrence's week and the day before it. */
    public static final Duration INCIDENT_LOOK_BACK = Duration.ofDays(8);

    private final Pool pool;
    private final ObjectMapper json;

    public TriageRepository(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
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
                .map(TriageRepository::located);
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
                .map(TriageRepository::located);
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
                .map(TriageRepository::located);
    }

    /**
     * The governance views of a pod's versions; for a pod whose versions carry none (metered only), its metering
     * versions with an empty status, so that its placement and requests are still read.
     */
    public Uni<List<PodStatusFact>> podVersions(String cluster, String uid) {
        return podVersions(cluster, List.of(uid));
    }

    /** As {@link #podVersions(String, String)} for many pods in two statements. */
    public Uni<List<PodStatusFact>> podVersions(String cluster, Collection<String> uids) {
        if (uids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return pool.preparedQuery("SELECT " + PodStatusVersions.COLUMNS + " FROM ledger." + PodStatusVersions.RELATION
                        + " WHERE cluster = $1 AND uid = ANY($2)")
                .execute(Tuple.of(cluster, uids.toArray(String[]::new)))
                .chain(rows -> {
                    List<PodStatusFact> views = new ArrayList<>(PodStatusVersions.decode(json, rows));
                    Set<String> metered = new TreeSet<>(uids);
                    views.forEach(v -> metered.remove(v.uid()));
                    if (metered.isEmpty()) {
                        return Uni.createFrom().item(views);
                    }
                    return pool.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.pod_fact"
                                    + " WHERE cluster = $1 AND uid = ANY($2)")
                            .execute(Tuple.of(cluster, metered.toArray(String[]::new)))
                            .map(pods -> {
                                StoredPayloads.decode(json, pods, PodFact.class).forEach(p -> views.add(
                                        new CarriedStatus(null, null, null, null, p.deletionTimestamp(), null, List.of()).on(p)));
                                return views;
                            });
                });
    }

    /** The newest view of each of these pods (for the pods of a Workload or PodGroup), by uid. */
    public Uni<Map<String, PodStatusFact>> latestViews(String cluster, Collection<String> uids) {
        return pool.preparedQuery("SELECT DISTINCT ON (uid) " + PodStatusVersions.COLUMNS + ", uid FROM ledger."
                        + PodStatusVersions.RELATION + " WHERE cluster = $1 AND uid = ANY($2) ORDER BY uid, observed_at DESC")
                .execute(Tuple.of(cluster, uids.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, PodStatusFact> out = new LinkedHashMap<>();
                    for (Row r : rows) {
                        PodStatusFact v = PodStatusVersions.decode(json, r);
                        out.put(v.uid(), v);
                    }
                    return out;
                });
    }

    /** The uids of the pods an owner (a Job, a ReplicaSet's Deployment) has in a namespace. */
    public Uni<List<String>> ownerPods(String cluster, String namespace, String ownerKind, String ownerName) {
        return pool.preparedQuery("""
                        SELECT DISTINCT uid FROM ledger.pod_status_version
                        WHERE cluster = $1 AND namespace = $2 AND owner_kind = $3 AND owner_name = $4 ORDER BY uid""")
                .execute(Tuple.of(cluster, namespace, ownerKind, ownerName))
                .map(rows -> column(rows, "uid"));
    }

    /** The uids of the pods of a namespace that name this pod group (Volcano's or the coscheduling plugin's). */
    public Uni<List<String>> groupPods(String cluster, String namespace, String group) {
        return pool.preparedQuery("""
                        SELECT DISTINCT uid FROM ledger.pod_status_version
                        WHERE cluster = $1 AND namespace = $2 AND coalesce(governed->>'groupName', status->>'groupName') = $3
                        ORDER BY uid""")
                .execute(Tuple.of(cluster, namespace, group))
                .map(rows -> column(rows, "uid"));
    }

    /** Every unit these pods held. */
    public Uni<List<Holding>> holdingsOfPods(String cluster, Collection<String> podUids) {
        return pool.preparedQuery("SELECT * FROM ledger.allocation_segment WHERE cluster = $1 AND pod_uid = ANY($2)"
                        + " ORDER BY seg_start, unit_index")
                .execute(Tuple.of(cluster, podUids.toArray(String[]::new)))
                .map(TriageRepository::holdings);
    }

    /** Every unit held at {@code at} on these nodes or these cards. */
    public Uni<List<Holding>> holdingsAt(String cluster, Collection<String> nodes, Collection<String> cards, Instant at) {
        return pool.preparedQuery("""
                        SELECT * FROM ledger.allocation_segment
                        WHERE cluster = $1 AND (node = ANY($2) OR gpu_uuid = ANY($3))
                          AND seg_start <= $4 AND (seg_end IS NULL OR seg_end > $4)
                        ORDER BY namespace, pod, unit_index""")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new), cards.toArray(String[]::new), offset(at)))
                .map(TriageRepository::holdings);
    }

    /** The cards an exporter or nvidia-smi saw a pod on. */
    public Uni<Set<String>> sightings(String cluster, String namespace, String pod) {
        return pool.preparedQuery("SELECT DISTINCT gpu_uuid FROM ledger.gpu_binding WHERE cluster = $1 AND namespace = $2 AND pod = $3")
                .execute(Tuple.of(cluster, namespace, pod))
                .map(rows -> new TreeSet<>(column(rows, "gpu_uuid")));
    }

    /**
     * The incidents of these pods (by uid) and of these nodes that started up to {@code at}: the pods' whole history,
     * the nodes' over {@link #INCIDENT_LOOK_BACK} before {@code at} and any still open, each branch through its index.
     */
    public Uni<List<StoredIncident>> incidentsAround(String cluster, Collection<String> podUids, Collection<String> nodes,
                                                     Instant at) {
        return pool.preparedQuery("""
                        SELECT * FROM ledger.gov_incident
                        WHERE cluster = $1 AND scope = 'pod' AND subject = ANY($2) AND started_at <= $4
                        UNION
                        SELECT * FROM ledger.gov_incident
                        WHERE cluster = $1 AND node = ANY($3) AND started_at >= $5 AND started_at <= $4
                        UNION
                        SELECT * FROM ledger.gov_incident
                        WHERE cluster = $1 AND node = ANY($3) AND recovered_at IS NULL AND ended_at IS NULL AND started_at <= $4
                        ORDER BY started_at, incident_key""")
                .execute(Tuple.from(List.of(cluster, podUids.toArray(String[]::new), nodes.toArray(String[]::new),
                        offset(at), offset(at.minus(INCIDENT_LOOK_BACK)))))
                .map(TriageRepository::incidents);
    }

    /** The incidents of one cause that started in [from, to] on these pods (by uid) or this node. */
    public Uni<List<StoredIncident>> sameCause(String cluster, String cause, Collection<String> podUids, String node,
                                               Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT * FROM ledger.gov_incident
                        WHERE cluster = $1 AND scope = 'pod' AND subject = ANY($2) AND cause = $4 AND started_at >= $5 AND started_at <= $6
                        UNION
                        SELECT * FROM ledger.gov_incident
                        WHERE cluster = $1 AND $3::text IS NOT NULL AND node = $3 AND scope <> 'pod' AND cause = $4
                          AND started_at >= $5 AND started_at <= $6
                        ORDER BY started_at, incident_key""")
                .execute(Tuple.from(List.of(cluster, podUids.toArray(String[]::new), node == null ? "" : node, cause,
                        offset(from), offset(to))))
                .map(TriageRepository::incidents);
    }

    /** The incidents of one cause open at {@code at} in a cluster (those open now, and those that ended after it). */
    public Uni<List<StoredIncident>> openOfCause(String cluster, String cause, Instant at) {
        return pool.preparedQuery("""
                        SELECT * FROM ledger.gov_incident
                        WHERE cluster = $1 AND cause = $2 AND recovered_at IS NULL AND ended_at IS NULL AND started_at <= $3
                        UNION
                        SELECT * FROM ledger.gov_incident
                        WHERE cluster = $1 AND cause = $2 AND started_at >= $4 AND started_at <= $3
                          AND coalesce(recovered_at, ended_at) > $3
                        ORDER BY started_at, incident_key""")
                .execute(Tuple.of(cluster, cause, offset(at), offset(at.minus(INCIDENT_LOOK_BACK))))
                .map(TriageRepository::incidents);
    }

    /** The memory minutes of these cards in [from, to]: the card's, HAMi's per container, nvidia-smi's per process. */
    public Uni<List<MemoryMinute>> memoryMinutes(String cluster, Collection<String> cards, Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT gpu_uuid, scope, scope_key, field, minute, max FROM ledger.usage_minute
                        WHERE cluster = $1 AND gpu_uuid = ANY($2) AND minute >= $3 AND minute <= $4
                          AND (scope = 'DEVICE' AND field IN ('FB_USED_MIB', 'FB_FREE_MIB', 'FB_RESERVED_MIB')
                               OR scope = 'CONTAINER' AND field IN ('VGPU_MEMORY_USED_MIB', 'VGPU_MEMORY_LIMIT_MIB')
                               OR scope = 'PROCESS' AND field = 'FB_USED_MIB')
                        ORDER BY gpu_uuid, minute, scope, scope_key, field""")
                .execute(Tuple.of(cluster, cards.toArray(String[]::new), offset(from), offset(to)))
                .map(rows -> {
                    List<MemoryMinute> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new MemoryMinute(r.getString("gpu_uuid"), r.getString("scope"), r.getString("scope_key"),
                                r.getString("field"), r.getOffsetDateTime("minute").toInstant(), r.getDouble("max")));
                    }
                    return out;
                });
    }

    /** The memory each of these nodes' cards registered with, by UUID, from each node's newest version. */
    public Uni<Map<String, Long>> registeredMemory(String cluster, Collection<String> nodes) {
        return pool.preparedQuery("""
                        SELECT g->>'uuid' AS uuid, (g->>'memoryMib')::bigint AS mib FROM (
                            SELECT DISTINCT ON (name) payload FROM ledger.node_fact WHERE cluster = $1 AND name = ANY($2)
                            ORDER BY name, revision DESC NULLS LAST, observed_at DESC) n
                        CROSS JOIN LATERAL json_array_elements(n.payload::json->'gpus') g""")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, Long> out = new LinkedHashMap<>();
                    for (Row r : rows) {
                        if (r.getString("uuid") != null && r.getLong("mib") != null) {
                            out.put(r.getString("uuid"), r.getLong("mib"));
                        }
                    }
                    return out;
                });
    }

    /** One pod's HAMi container minutes (core utilization, memory) on these cards in [from, to). */
    public Uni<List<ContainerMinute>> containerMinutes(String cluster, Collection<String> cards, String namespace,
                                                       String pod, Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT gpu_uuid, scope_key, minute,
                               max(sum / samples) FILTER (WHERE field = 'VGPU_CORE_UTIL') AS cores,
                               max(sum / samples) FILTER (WHERE field = 'VGPU_MEMORY_USED_MIB') AS memory
                        FROM ledger.usage_minute
                        WHERE cluster = $1 AND gpu_uuid = ANY($2) AND scope = 'CONTAINER' AND scope_key LIKE $3
                          AND field IN ('VGPU_CORE_UTIL', 'VGPU_MEMORY_USED_MIB') AND minute >= $4 AND minute < $5
                        GROUP BY gpu_uuid, scope_key, minute""")
                .execute(Tuple.of(cluster, cards.toArray(String[]::new), like(namespace, pod), offset(from), offset(to)))
                .map(rows -> {
                    List<ContainerMinute> out = new ArrayList<>();
                    for (Row r : rows) {
                        String[] key = r.getString("scope_key").split("/", 3);
                        out.add(new ContainerMinute(cluster, r.getString("gpu_uuid"), key[0], key.length > 1 ? key[1] : "",
                                key.length > 2 ? key[2] : "", r.getOffsetDateTime("minute").toInstant(), r.getDouble("cores"),
                                r.getDouble("memory")));
                    }
                    return out;
                });
    }

    /** One pod's per-process minutes on these cards in [from, to), summed per container, as the bypass rule reads them. */
    public Uni<List<ContainerMinute>> processMinutes(String cluster, Collection<String> cards, String namespace,
                                                     String pod, Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT gpu_uuid, split_part(scope_key, '/', 3) AS container, minute,
                               sum(sum / samples) FILTER (WHERE field = 'GPU_UTIL') AS sm,
                               sum(sum / samples) FILTER (WHERE field = 'FB_USED_MIB') AS memory
                        FROM ledger.usage_minute
                        WHERE cluster = $1 AND gpu_uuid = ANY($2) AND scope = 'PROCESS' AND scope_key LIKE $3
                          AND field IN ('GPU_UTIL', 'FB_USED_MIB') AND minute >= $4 AND minute < $5
                        GROUP BY gpu_uuid, container, minute""")
                .execute(Tuple.of(cluster, cards.toArray(String[]::new), like(namespace, pod) + "/%", offset(from), offset(to)))
                .map(rows -> {
                    List<ContainerMinute> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new ContainerMinute(cluster, r.getString("gpu_uuid"), namespace, pod, r.getString("container"),
                                r.getOffsetDateTime("minute").toInstant(), r.getDouble("sm"), r.getDouble("memory")));
                    }
                    return out;
                });
    }

    /** One pod's HAMi grants the ledger did not book. */
    public Uni<List<GrantFinding>> grantFindings(String cluster, String podUid) {
        return pool.preparedQuery("SELECT * FROM ledger.hami_grant_finding WHERE cluster = $1 AND pod_uid = $2 ORDER BY since, gpu_uuid")
                .execute(Tuple.of(cluster, podUid))
                .map(rows -> {
                    List<GrantFinding> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new GrantFinding(r.getString("cluster"), r.getString("pod_uid"), r.getString("namespace"),
                                r.getString("pod"), r.getString("node"), r.getString("gpu_uuid"), r.getLong("memory_mib"),
                                r.getInteger("cores"), HamiCheck.valueOf(r.getString("failed_check")), r.getString("detail"),
                                instant(r.getOffsetDateTime("since")), instant(r.getOffsetDateTime("until")),
                                r.getString("tenant"), r.getString("team"), r.getString("project")));
                    }
                    return out;
                });
    }

    /** A LIKE pattern of a pod's series keys ({@code ns/pod/...}), its names' wildcards escaped. */
    static String like(String namespace, String pod) {
        return escape(namespace) + "/" + escape(pod) + "/%";
    }

    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private static List<Located> located(RowSet<Row> rows) {
        List<Located> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(new Located(r.getString("cluster"), r.getString("uid"), instant(r.getOffsetDateTime("first_seen")),
                    instant(r.getOffsetDateTime("last_seen"))));
        }
        return out;
    }

    private static List<Holding> holdings(RowSet<Row> rows) {
        List<Holding> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(new Holding(r.getString("namespace"), r.getString("pod"), r.getString("pod_uid"), r.getString("node"),
                    r.getString("gpu_uuid"), r.getString("unit_kind"), r.getString("mig_profile"), r.getInteger("cores"),
                    r.getLong("memory_mib"), r.getBigDecimal("fraction"), instant(r.getOffsetDateTime("seg_start")),
                    instant(r.getOffsetDateTime("seg_end")), r.getString("tenant")));
        }
        return out;
    }

    private static List<StoredIncident> incidents(RowSet<Row> rows) {
        List<StoredIncident> out = new ArrayList<>();
        rows.forEach(r -> out.add(IncidentRepository.incident(r)));
        return out;
    }

    private static List<String> column(RowSet<Row> rows, String name) {
        List<String> out = new ArrayList<>();
        rows.forEach(r -> out.add(r.getString(name)));
        return out;
    }

    private static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
