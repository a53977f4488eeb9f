package io.gpumeter.ledger.governance.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.DriverSightingFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.StackWorkloadFact;
import io.gpumeter.ledger.governance.domain.SeenDriver;
import io.gpumeter.ledger.repository.Inserted;
import io.gpumeter.ledger.repository.StoredPayloads;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.gpumeter.ledger.governance.repository.Sql.instant;
import static io.gpumeter.ledger.repository.Columns.offset;
import static io.gpumeter.ledger.repository.Columns.strings;
import static io.gpumeter.ledger.repository.Columns.times;

/**
 * The facts of the GPU stack's state under their natural keys (node statuses, stack workloads and pods: cluster,
 * object, resourceVersion, type; driver sightings: cluster, node, card, data path, version, with the first and last
 * instant seen), and the reads that derive the change book and answer a node's GPU stack at an instant.
 */
@ApplicationScoped
public class StackFactRepository {

    /** The latest version of each object at or before an instant, as every read "at" orders versions. */
    private static final String LATEST_FIRST = "revision DESC NULLS LAST, observed_at DESC, event_type = 'DELETED'";

    private final ObjectMapper json;

    public StackFactRepository(ObjectMapper json) {
        this.json = json;
    }

    /** Keys returned: the names of the nodes with a new version. */
    public Uni<Inserted> insertNodeStatuses(SqlConnection conn, String cluster, List<NodeStatusFact> facts) {
        return insert(conn, facts, """
                INSERT INTO ledger.gov_node_status_fact (cluster, name, resource_version, event_type, revision, observed_at, payload)
                SELECT $1, u.name, u.rv, u.et, CASE WHEN u.rv ~ '^[0-9]{1,18}$' THEN u.rv::bigint END, u.obs,
                       convert_from(u.payload, 'UTF8')::jsonb
                FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::bytea[]) AS u(name, rv, et, obs, payload)
                ON CONFLICT DO NOTHING RETURNING name AS k""", List.of(cluster,
                strings(facts, NodeStatusFact::name), strings(facts, NodeStatusFact::resourceVersion),
                strings(facts, f -> f.type().name()), times(facts, NodeStatusFact::observedAt),
                StoredPayloads.encode(json, facts)));
    }

    /** Keys returned: the components with a new workload version. */
    public Uni<Inserted> insertStackWorkloads(SqlConnection conn, String cluster, List<StackWorkloadFact> facts) {
        return insert(conn, facts, """
                INSERT INTO ledger.gov_stack_workload_fact (cluster, namespace, name, resource_version, event_type, component,
                    revision, observed_at, payload)
                SELECT $1, u.ns, u.name, u.rv, u.et, u.component, CASE WHEN u.rv ~ '^[0-9]{1,18}$' THEN u.rv::bigint END,
                       u.obs, convert_from(u.payload, 'UTF8')::jsonb
                FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::bytea[])
                     AS u(ns, name, rv, et, component, obs, payload)
                ON CONFLICT DO NOTHING RETURNING component AS k""", List.of(cluster,
                strings(facts, StackWorkloadFact::namespace), strings(facts, StackWorkloadFact::name),
                strings(facts, StackWorkloadFact::resourceVersion), strings(facts, f -> f.type().name()),
                strings(facts, StackWorkloadFact::component), times(facts, StackWorkloadFact::observedAt),
                StoredPayloads.encode(json, facts)));
    }

    /** Keys returned: the nodes a new pod version runs on ("" for an unscheduled one). */
    public Uni<Inserted> insertStackPods(SqlConnection conn, String cluster, List<StackPodFact> facts) {
        return insert(conn, facts, """
                INSERT INTO ledger.gov_stack_pod_fact (cluster, namespace, name, resource_version, event_type, component, node,
                    revision, observed_at, payload)
                SELECT $1, u.ns, u.name, u.rv, u.et, u.component, u.node, CASE WHEN u.rv ~ '^[0-9]{1,18}$' THEN u.rv::bigint END,
                       u.obs, convert_from(u.payload, 'UTF8')::jsonb
                FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::bytea[])
                     AS u(ns, name, rv, et, component, node, obs, payload)
                ON CONFLICT DO NOTHING RETURNING coalesce(node, '') AS k""", List.of(cluster,
                strings(facts, StackPodFact::namespace), strings(facts, StackPodFact::name),
                strings(facts, StackPodFact::resourceVersion), strings(facts, f -> f.type().name()),
                strings(facts, StackPodFact::component), strings(facts, StackPodFact::node),
                times(facts, StackPodFact::observedAt), StoredPayloads.encode(json, facts)));
    }

    /**
     * Widens each card's, data path's and version's first and last sighting to the batch's. Counted: the sightings
     * of a version not seen before on that card. Keys returned: the nodes whose sightings widened.
     */
    public Uni<Inserted> insertDriverSightings(SqlConnection conn, String cluster, List<DriverSightingFact> facts) {
        if (facts.isEmpty()) {
            return Uni.createFrom().item(Inserted.NONE);
        }
        // One row per key in the statement: ON CONFLICT DO UPDATE may not touch a row twice.
        Map<List<String>, Instant[]> seen = new LinkedHashMap<>();
        for (DriverSightingFact f : facts) {
            seen.merge(List.of(f.node(), f.gpuUuid(), f.source(), f.version()), new Instant[]{f.observedAt(), f.observedAt()},
                    (a, b) -> new Instant[]{a[0].isBefore(b[0]) ? a[0] : b[0], a[1].isAfter(b[1]) ? a[1] : b[1]});
        }
        List<Map.Entry<List<String>, Instant[]>> rows = new ArrayList<>(seen.entrySet());
        return conn.preparedQuery("""
                        INSERT INTO ledger.gov_driver_sighting AS s (cluster, node, gpu_uuid, source, version, first_seen, last_seen)
                        SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[])
                             AS u(node, uuid, source, version, first_seen, last_seen)
                        ON CONFLICT (cluster, node, gpu_uuid, source, version) DO UPDATE
                            SET first_seen = least(s.first_seen, excluded.first_seen),
                                last_seen = greatest(s.last_seen, excluded.last_seen)
                            WHERE excluded.first_seen < s.first_seen OR excluded.last_seen > s.last_seen
                        RETURNING node AS k, (xmax = 0) AS inserted""")
                .execute(Tuple.from(List.of(cluster, strings(rows, e -> e.getKey().get(0)),
                        strings(rows, e -> e.getKey().get(1)), strings(rows, e -> e.getKey().get(2)),
                        strings(rows, e -> e.getKey().get(3)), times(rows, e -> e.getValue()[0]),
                        times(rows, e -> e.getValue()[1]))))
                .map(result -> {
                    Set<String> nodes = new LinkedHashSet<>();
                    int inserted = 0;
                    for (Row r : result) {
                        nodes.add(r.getString("k"));
                        inserted += Boolean.TRUE.equals(r.getBoolean("inserted")) ? 1 : 0;
                    }
                    return new Inserted(inserted, nodes);
                });
    }

    /** Every stored status version of these nodes. */
    public Uni<List<NodeStatusFact>> statusVersions(SqlClient db, String cluster, Collection<String> nodes) {
        return payloads(db, "gov_node_status_fact", "name", cluster, nodes, NodeStatusFact.class);
    }

    /** Every stored version of the stack pods that ran on these nodes. */
    public Uni<List<StackPodFact>> podsOn(SqlClient db, String cluster, Collection<String> nodes) {
        return payloads(db, "gov_stack_pod_fact", "node", cluster, nodes, StackPodFact.class);
    }

    /** Every stored version of the workloads of these components. */
    public Uni<List<StackWorkloadFact>> workloadsOf(SqlClient db, String cluster, Collection<String> components) {
        return payloads(db, "gov_stack_workload_fact", "component", cluster, components, StackWorkloadFact.class);
    }

    /** The stored versions in one of this class's tables whose {@code column} is one of {@code values}. */
    private <T> Uni<List<T>> payloads(SqlClient db, String table, String column, String cluster,
                                      Collection<String> values, Class<T> type) {
        return db.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger." + table
                        + " WHERE cluster = $1 AND " + column + " = ANY($2)")
                .execute(Tuple.of(cluster, values.toArray(String[]::new)))
                .map(rows -> StoredPayloads.decode(json, rows, type));
    }

    /** Every stored version of these queue objects, named kind/namespace/name as the queue object insert keys them. */
    public Uni<List<QueueObjectFact>> queueVersions(SqlClient db, String cluster, Collection<String> keys) {
        List<String[]> parts = keys.stream().map(k -> k.split("/", 3)).filter(p -> p.length == 3).toList();
        return db.preparedQuery("""
                        SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.gov_queue_object_fact
                        WHERE cluster = $1 AND (kind, namespace, name) IN (SELECT * FROM unnest($2::text[], $3::text[], $4::text[]))""")
                .execute(Tuple.of(cluster, strings(parts, p -> p[0]), strings(parts, p -> p[1]), strings(parts, p -> p[2])))
                .map(rows -> StoredPayloads.decode(json, rows, QueueObjectFact.class));
    }

    /** What the data paths saw on these nodes' cards; {@code at} null for all of it, else what was first seen by then. */
    public Uni<List<SeenDriver>> sightings(SqlClient db, String cluster, Collection<String> nodes, Instant at) {
        return db.preparedQuery("""
                        SELECT node, gpu_uuid, source, version, first_seen, last_seen FROM ledger.gov_driver_sighting
                        WHERE cluster = $1 AND node = ANY($2) AND ($3::timestamptz IS NULL OR first_seen <= $3)
                        ORDER BY node, gpu_uuid, source, first_seen""")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new), offset(at)))
                .map(rows -> {
                    List<SeenDriver> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new SeenDriver(r.getString("node"), r.getString("gpu_uuid"),
                            r.getString("source"), r.getString("version"), instant(r.getOffsetDateTime("first_seen")),
                            instant(r.getOffsetDateTime("last_seen")))));
                    return out;
                });
    }

    /** A node's latest status version at or before an instant (a deletion included), or null. */
    public Uni<NodeStatusFact> statusAt(SqlClient db, String cluster, String node, Instant at) {
        return db.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.gov_node_status_fact"
                        + " WHERE cluster = $1 AND name = $2 AND observed_at <= $3 ORDER BY " + LATEST_FIRST + " LIMIT 1")
                .execute(Tuple.of(cluster, node, offset(at)))
                .map(rows -> first(StoredPayloads.decode(json, rows, NodeStatusFact.class)));
    }

    /** The latest version of every stack workload of the cluster at or before an instant (deletions included). */
    public Uni<List<StackWorkloadFact>> workloadsAt(SqlClient db, String cluster, Instant at) {
        return db.preparedQuery("SELECT p FROM (SELECT DISTINCT ON (namespace, name) convert_to(payload::text, 'UTF8') AS p,"
                        + " component, namespace, name FROM ledger.gov_stack_workload_fact"
                        + " WHERE cluster = $1 AND observed_at <= $2 ORDER BY namespace, name, " + LATEST_FIRST
                        + ") latest ORDER BY component, namespace, name")
                .execute(Tuple.of(cluster, offset(at)))
                .map(rows -> StoredPayloads.decode(json, rows, StackWorkloadFact.class));
    }

    /** The latest version of every stack pod that ran on a node, at or before an instant (deletions included). */
    public Uni<List<StackPodFact>> podsOnAt(SqlClient db, String cluster, String node, Instant at) {
        return db.preparedQuery("SELECT p FROM (SELECT DISTINCT ON (namespace, name) convert_to(payload::text, 'UTF8') AS p,"
                        + " revision, observed_at FROM ledger.gov_stack_pod_fact"
                        + " WHERE cluster = $1 AND node = $2 AND observed_at <= $3 ORDER BY namespace, name, " + LATEST_FIRST
                        + ") latest ORDER BY revision NULLS FIRST, observed_at")
                .execute(Tuple.of(cluster, node, offset(at)))
                .map(rows -> StoredPayloads.decode(json, rows, StackPodFact.class));
    }

    /** A node's latest label version at or before an instant (a deletion included), or null. */
    public Uni<NodeFact> nodeAt(SqlClient db, String cluster, String node, Instant at) {
        return db.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.node_fact"
                        + " WHERE cluster = $1 AND name = $2 AND observed_at <= $3 ORDER BY " + LATEST_FIRST + " LIMIT 1")
                .execute(Tuple.of(cluster, node, offset(at)))
                .map(rows -> first(StoredPayloads.decode(json, rows, NodeFact.class)));
    }

    private static <T> T first(List<T> list) {
        return list.isEmpty() ? null : list.get(0);
    }

    private static Uni<Inserted> insert(SqlConnection conn, List<?> facts, String sql, List<Object> params) {
        if (facts.isEmpty()) {
            return Uni.createFrom().item(Inserted.NONE);
        }
        return conn.preparedQuery(sql).execute(Tuple.from(params)).map(rows -> {
            Set<String> keys = new LinkedHashSet<>();
            rows.forEach(r -> keys.add(r.getString("k")));
            return new Inserted(rows.rowCount(), keys);
        });
    }
}
