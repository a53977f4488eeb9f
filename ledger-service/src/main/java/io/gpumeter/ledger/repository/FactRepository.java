package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.ledger.governance.domain.CarriedStatuses;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Stores observed Kubernetes object versions under their natural keys and reads them back for derivation. */
@ApplicationScoped
public class FactRepository {

    private final ObjectMapper json;
    private final VersionRelation<PodFact> versions;

    public FactRepository(ObjectMapper json) {
        this.json = json;
        this.versions = VersionRelation.payloads("pod_fact", PodFact.class, json);
    }

    /**
     * Inserts the batch's pod versions the table did not hold before it (read into its hand under the cluster lock),
     * and in the same statement folds them into their pods' lifecycle rows ({@link PodVersionStatement}); returns the
     * uids of the pods that got a new version.
     */
    public Uni<Inserted> insertPods(SqlConnection conn, String cluster, VersionsInHand<PodFact> batch,
                                    CarriedStatuses carried, ReceivedPayloads received) {
        return batch.insertUnstored(slice -> podSlice(cluster, slice, carried, received),
                parameters -> conn.preparedQuery(PodVersionStatement.SQL).execute(parameters).replaceWithVoid())
                .invoke(received::release); // the pods were what the body's bytes were kept for
    }

    /** A pod version carrying its governance view keeps the view's status fields beside its payload (ADR 0016). */
    private Tuple podSlice(String cluster, List<PodFact> pods, CarriedStatuses carried, ReceivedPayloads received) {
        return Tuple.from(List.of(cluster,
                Columns.strings(pods, PodFact::uid), Columns.strings(pods, PodFact::resourceVersion),
                Columns.strings(pods, p -> p.type().name()), Columns.strings(pods, PodFact::namespace),
                Columns.strings(pods, PodFact::nodeName), Columns.times(pods, PodFact::observedAt),
                StoredPayloads.encode(json, pods, received), Columns.strings(pods, PodFact::name),
                Columns.strings(pods, p -> p.owner() == null ? null : p.owner().kind()),
                Columns.strings(pods, p -> p.owner() == null ? null : p.owner().name()),
                StoredPayloads.encodeOrNull(json, Arrays.asList(Columns.values(pods, carried::of, CarriedStatus[]::new)),
                        received),
                PodLifecycleColumns.parsedTimes(pods, PodFact::createdAt),
                PodLifecycleColumns.parsedTimes(pods, PodFact::scheduledAt),
                PodLifecycleColumns.parsedTimes(pods, PodFact::deletionTimestamp),
                PodLifecycleColumns.finished(pods), PodLifecycleColumns.resources(pods),
                Columns.strings(pods, p -> p.owner() == null ? null : p.owner().apiVersion()),
                PodLifecycleColumns.labels(json, pods)));
    }

    /** Inserts the namespace versions not seen before; returns the names of the namespaces that changed. */
    public Uni<Inserted> insertNamespaces(SqlConnection conn, String cluster, List<NamespaceFact> namespaces) {
        if (namespaces.isEmpty()) {
            return Uni.createFrom().item(Inserted.NONE);
        }
        return conn.preparedQuery("""
                        INSERT INTO ledger.namespace_fact (cluster, name, resource_version, event_type, observed_at, payload)
                        SELECT $1, u.name, u.rv, u.et, u.obs, convert_from(u.payload, 'UTF8')::jsonb
                        FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::bytea[]) AS u(name, rv, et, obs, payload)
                        ON CONFLICT DO NOTHING
                        RETURNING name""")
                .execute(Tuple.from(List.of(cluster,
                        Columns.strings(namespaces, NamespaceFact::name), Columns.strings(namespaces, NamespaceFact::resourceVersion),
                        Columns.strings(namespaces, n -> n.type().name()), Columns.times(namespaces, NamespaceFact::observedAt),
                        StoredPayloads.encode(json, namespaces))))
                .map(rows -> new Inserted(rows.rowCount(), strings(rows, "name")));
    }

    /** Inserts the node versions not seen before; returns the names of the nodes that changed. */
    public Uni<Inserted> insertNodes(SqlConnection conn, String cluster, List<NodeFact> nodes) {
        if (nodes.isEmpty()) {
            return Uni.createFrom().item(Inserted.NONE);
        }
        return conn.preparedQuery("""
                        INSERT INTO ledger.node_fact (cluster, name, resource_version, event_type, revision, observed_at, payload)
                        SELECT $1, u.name, u.rv, u.et, CASE WHEN u.rv ~ '^[0-9]{1,18}$' THEN u.rv::bigint END, u.obs, convert_from(u.payload, 'UTF8')::jsonb
                        FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::bytea[]) AS u(name, rv, et, obs, payload)
                        ON CONFLICT DO NOTHING
                        RETURNING name""")
                .execute(Tuple.from(List.of(cluster,
                        Columns.strings(nodes, NodeFact::name), Columns.strings(nodes, NodeFact::resourceVersion),
                        Columns.strings(nodes, n -> n.type().name()), Columns.times(nodes, NodeFact::observedAt), StoredPayloads.encode(json, nodes))))
                .map(rows -> new Inserted(rows.rowCount(), strings(rows, "name")));
    }

    /** The uids of every pod ever seen in these namespaces: their attribution may change anywhere in time. */
    public Uni<Set<String>> podsInNamespaces(SqlConnection conn, String cluster, Collection<String> namespaces) {
        if (namespaces.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return conn.preparedQuery("SELECT DISTINCT uid FROM ledger.pod_fact WHERE cluster = $1 AND namespace = ANY($2)")
                .execute(Tuple.of(cluster, namespaces.toArray(String[]::new)))
                .map(rows -> strings(rows, "uid"));
    }

    /**
     * The pods on these nodes whose books a new node inventory may change: those still held, and those derived
     * before the node was known. A finished allocation priced with a known card keeps the inventory of its time.
     * Two plain reads, the anti-join done here: in one statement PostgreSQL planned the anti-join from the statistics
     * of before a bulk load (a cluster's first rows, still unanalysed), and one such plan took 48 s of a 60 s timeout.
     */
    public Uni<Set<String>> podsAwaitingNode(SqlConnection conn, String cluster, Collection<String> nodes) {
        if (nodes.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return conn.preparedQuery("SELECT DISTINCT uid FROM ledger.pod_fact WHERE cluster = $1 AND node_name = ANY($2)")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new)))
                .map(rows -> strings(rows, "uid"))
                .chain(onNodes -> onNodes.isEmpty() ? Uni.createFrom().item(onNodes) : conn.preparedQuery("""
                                SELECT DISTINCT pod_uid FROM ledger.allocation_segment
                                WHERE cluster = $1 AND pod_uid = ANY($2) AND until IS NOT NULL AND gpu_model IS NOT NULL""")
                        .execute(Tuple.of(cluster, onNodes.toArray(String[]::new)))
                        .map(priced -> {
                            Set<String> awaiting = new LinkedHashSet<>(onNodes);
                            priced.forEach(r -> awaiting.remove(r.getString("pod_uid")));
                            return awaiting;
                        }));
    }

    public Uni<List<PodFact>> podVersions(SqlConnection conn, String cluster, Collection<String> uids) {
        return conn.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.pod_fact WHERE cluster = $1 AND uid = ANY($2)")
                .execute(Tuple.of(cluster, uids.toArray(String[]::new)))
                .map(rows -> StoredPayloads.decode(json, rows, PodFact.class));
    }

    /** Takes a batch's pod versions into hand before they are inserted (see {@link VersionsInHand}). */
    public Uni<VersionsInHand<PodFact>> podsInHand(SqlConnection conn, String cluster, List<PodFact> batch) {
        return VersionsInHand.before(conn, versions, cluster, batch, PodFact::uid, PodFact::resourceVersion,
                p -> p.type().name(), PodFact::observedAt);
    }

    /**
     * As {@link #podsInHand(SqlConnection, String, List)}, taken before the transaction; the caller gives it the keys
     * stored before ({@link VersionsInHand#withKeys}).
     */
    public VersionsInHand<PodFact> takePods(List<PodFact> batch) {
        return VersionsInHand.taken(versions, batch, PodFact::uid, PodFact::resourceVersion, p -> p.type().name(),
                PodFact::observedAt);
    }

    /** Nothing in hand: every version of a pod is read as stored. */
    public VersionsInHand<PodFact> noPodsInHand() {
        return VersionsInHand.none(versions);
    }

    /** Every stored version of these pods, those of the caller's batch taken from its hand. */
    public Uni<List<PodFact>> podVersions(SqlConnection conn, String cluster, Collection<String> uids,
                                          VersionsInHand<PodFact> inHand) {
        return inHand.read(conn, cluster, uids);
    }

    public Uni<List<NamespaceFact>> namespaceVersions(SqlConnection conn, String cluster, Collection<String> names) {
        return conn.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.namespace_fact WHERE cluster = $1 AND name = ANY($2)")
                .execute(Tuple.of(cluster, names.toArray(String[]::new)))
                .map(rows -> StoredPayloads.decode(json, rows, NamespaceFact.class));
    }

    /** The newest version of each node (by revision, then observation), deleted nodes included. */
    public Uni<List<NodeFact>> latestNodes(SqlConnection conn, String cluster, Collection<String> names) {
        return conn.preparedQuery("""
                        SELECT DISTINCT ON (name) convert_to(payload::text, 'UTF8') AS p FROM ledger.node_fact
                        WHERE cluster = $1 AND name = ANY($2)
                        ORDER BY name, revision DESC NULLS LAST, observed_at DESC, event_type = 'DELETED'""")
                .execute(Tuple.of(cluster, names.toArray(String[]::new)))
                .map(rows -> StoredPayloads.decode(json, rows, NodeFact.class));
    }

    /** Every stored version of these nodes. */
    public Uni<List<NodeFact>> nodeVersions(SqlConnection conn, String cluster, Collection<String> names) {
        return conn.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.node_fact WHERE cluster = $1 AND name = ANY($2)")
                .execute(Tuple.of(cluster, names.toArray(String[]::new)))
                .map(rows -> StoredPayloads.decode(json, rows, NodeFact.class));
    }

    static OffsetDateTime toOffset(Instant instant) {
        return Columns.offset(instant);
    }

    private static Set<String> strings(RowSet<Row> rows, String column) {
        Set<String> out = new LinkedHashSet<>();
        rows.forEach(r -> out.add(r.getString(column)));
        return out;
    }
}
