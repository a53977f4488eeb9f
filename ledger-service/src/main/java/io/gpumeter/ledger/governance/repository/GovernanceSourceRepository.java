package io.gpumeter.ledger.governance.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.QueueObjectKind;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.fact.XidFact;
import io.gpumeter.ledger.repository.KeyPairs;
import io.gpumeter.ledger.repository.StoredPayloads;
import io.gpumeter.ledger.repository.VersionRelation;
import io.gpumeter.ledger.repository.VersionsInHand;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static io.gpumeter.ledger.governance.repository.Sql.instant;

/** Reads back the stored governance facts of given objects, for derivation and for the audit trail. */
@ApplicationScoped
public class GovernanceSourceRepository {

    /** The relations of governance objects with a namespace and a name, the only ones read by name. */
    private static final Set<String> OBJECT_RELATIONS =
            Set.of("gov_workload_fact", "gov_pod_group_fact", PodStatusVersions.RELATION);

    private final ObjectMapper json;
    private final VersionRelation<PodStatusFact> podVersions;

    public GovernanceSourceRepository(ObjectMapper json) {
        this.json = json;
        this.podVersions = PodStatusVersions.relation(json);
    }

    public Uni<List<WorkloadFact>> workloads(SqlClient db, String cluster, Collection<String> uids) {
        return db.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.gov_workload_fact WHERE cluster = $1 AND uid = ANY($2)")
                .execute(Tuple.of(cluster, uids.toArray(String[]::new))).map(rows -> StoredPayloads.decode(json, rows, WorkloadFact.class));
    }

    public Uni<List<PodGroupFact>> podGroups(SqlClient db, String cluster, Collection<String> uids) {
        return db.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.gov_pod_group_fact WHERE cluster = $1 AND uid = ANY($2)")
                .execute(Tuple.of(cluster, uids.toArray(String[]::new))).map(rows -> StoredPayloads.decode(json, rows, PodGroupFact.class));
    }

    /**
     * Takes a batch's governance views of pods into hand before they are stored (see {@link VersionsInHand}), with the
     * keys of the views stored before, carried or not.
     */
    public Uni<VersionsInHand<PodStatusFact>> podsInHand(SqlClient db, String cluster, List<PodStatusFact> batch) {
        return VersionsInHand.before(db, podVersions, cluster, batch, PodStatusFact::uid,
                PodStatusFact::resourceVersion, p -> p.type().name(), PodStatusFact::observedAt);
    }

    /**
     * As {@link #podsInHand(SqlClient, String, List)}, taken before the transaction; the caller gives it the keys
     * stored before ({@link VersionsInHand#withKeys}).
     */
    public VersionsInHand<PodStatusFact> takePods(List<PodStatusFact> batch) {
        return VersionsInHand.taken(podVersions, batch, PodStatusFact::uid, PodStatusFact::resourceVersion,
                p -> p.type().name(), PodStatusFact::observedAt);
    }

    /** Nothing in hand: every version of a pod is read as stored. */
    public VersionsInHand<PodStatusFact> noPodsInHand() {
        return VersionsInHand.none(podVersions);
    }

    /** Every stored version of these pods, those of the caller's batch taken from its hand. */
    public Uni<List<PodStatusFact>> pods(SqlClient db, String cluster, Collection<String> uids,
                                         VersionsInHand<PodStatusFact> inHand) {
        return inHand.read(db, cluster, uids);
    }

    public Uni<List<PodStatusFact>> pods(SqlClient db, String cluster, Collection<String> uids) {
        return noPodsInHand().read(db, cluster, uids);
    }

    /**
     * The newest version of every event about objects of one namespaced kind, matched by uid or, for events that
     * carry no uid, by namespace/name.
     */
    public Uni<List<EventFact>> eventsAbout(SqlClient db, String cluster, String kind, Collection<String> uids,
                                            Collection<String> namespacedNames) {
        KeyPairs names = KeyPairs.split(namespacedNames);
        return db.preparedQuery(eventsAboutSql())
                .execute(Tuple.of(cluster, kind, uids.toArray(String[]::new), names.first(), names.second()))
                .map(rows -> StoredPayloads.decode(json, rows, EventFact.class));
    }

    /**
     * Events by uid, and those without one by namespace and name, pair by pair: each half through its own index. As
     * one condition, (uid or concatenated name), it read every event of the kind in the cluster.
     */
    static String eventsAboutSql() {
        return """
                SELECT DISTINCT ON (uid) convert_to(payload::text, 'UTF8') AS p FROM (
                    SELECT * FROM ledger.gov_event_fact_fields
                    WHERE cluster = $1 AND involved_kind = $2 AND involved_uid = ANY($3)
                    UNION ALL
                    SELECT * FROM ledger.gov_event_fact_fields
                    WHERE cluster = $1 AND involved_kind = $2 AND involved_uid IS NULL
                      AND (involved_namespace, involved_name) IN (SELECT * FROM unnest($4::text[], $5::text[]))) e
                ORDER BY uid, count DESC, observed_at DESC""";
    }

    /** Uids of the objects of a fact table with these namespace/name pairs. */
    public Uni<Set<String>> uidsByName(SqlClient db, String cluster, String table, Collection<String> namespacedNames) {
        requireObjectRelation(table);
        KeyPairs names = KeyPairs.split(namespacedNames);
        if (names.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return db.preparedQuery(uidsByNameSql(table)).execute(Tuple.of(cluster, names.first(), names.second()))
                .map(rows -> strings(rows, "uid"));
    }

    /** The uids of a table's objects by namespace ($2) and name ($3), pair by pair, through its name index. */
    static String uidsByNameSql(String table) {
        return "SELECT DISTINCT uid FROM ledger." + table
                + " WHERE cluster = $1 AND (namespace, name) IN (SELECT * FROM unnest($2::text[], $3::text[]))";
    }

    public Uni<List<LogSignalFact>> logSignals(SqlClient db, String cluster, Collection<String> namespacedPods) {
        return db.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.gov_log_signal_fact WHERE cluster = $1 AND namespace || '/' || pod = ANY($2)")
                .execute(Tuple.of(cluster, namespacedPods.toArray(String[]::new)))
                .map(rows -> StoredPayloads.decode(json, rows, LogSignalFact.class));
    }

    /** Xids of these cards, keyed node|pci. */
    public Uni<List<XidFact>> xids(SqlClient db, String cluster, Collection<String> cards) {
        return db.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.gov_xid_fact WHERE cluster = $1 AND node || '|' || pci_bus_id = ANY($2)")
                .execute(Tuple.of(cluster, cards.toArray(String[]::new)))
                .map(rows -> StoredPayloads.decode(json, rows, XidFact.class));
    }

    public Uni<List<GpuAddressFact>> announcements(SqlClient db, String cluster, Collection<String> cards) {
        return db.preparedQuery("""
                        SELECT node, pci_bus_id, gpu_uuid, at FROM ledger.gov_gpu_address_fact
                        WHERE cluster = $1 AND node || '|' || pci_bus_id = ANY($2)""")
                .execute(Tuple.of(cluster, cards.toArray(String[]::new)))
                .map(rows -> {
                    List<GpuAddressFact> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new GpuAddressFact(r.getString("node"), r.getString("pci_bus_id"), r.getString("gpu_uuid"),
                                instant(r.getOffsetDateTime("at"))));
                    }
                    return out;
                });
    }

    /** Where objects of a fact table with this namespace and name live: cluster and uid, newest first. */
    public Uni<List<String[]>> locate(SqlClient db, String table, String cluster, String namespace, String name) {
        requireObjectRelation(table);
        return db.preparedQuery("SELECT cluster, uid, max(observed_at) AS seen FROM ledger." + table
                        + " WHERE namespace = $1 AND name = $2 AND ($3::text IS NULL OR cluster = $3)"
                        + " GROUP BY cluster, uid ORDER BY seen DESC")
                .execute(Tuple.of(namespace, name, cluster))
                .map(rows -> {
                    List<String[]> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new String[]{r.getString("cluster"), r.getString("uid")}));
                    return out;
                });
    }

    /** The newest version of every ClusterQueue (or other queue object kind) that is not deleted. */
    public Uni<List<Stored<QueueObjectFact>>> latestQueueObjects(SqlClient db, QueueObjectKind kind, String cluster) {
        return db.preparedQuery("""
                        SELECT cluster, p FROM (SELECT DISTINCT ON (cluster, namespace, name) cluster, convert_to(payload::text, 'UTF8') AS p, event_type
                                       FROM ledger.gov_queue_object_fact WHERE kind = $1 AND ($2::text IS NULL OR cluster = $2)
                                       ORDER BY cluster, namespace, name, revision DESC NULLS LAST, observed_at DESC) latest
                        WHERE event_type <> 'DELETED'""")
                .execute(Tuple.of(kind.name(), cluster))
                .map(rows -> {
                    List<QueueObjectFact> facts = StoredPayloads.decode(json, rows, QueueObjectFact.class);
                    List<Stored<QueueObjectFact>> out = new ArrayList<>();
                    int i = 0;
                    for (Row r : rows) {
                        out.add(new Stored<>(r.getString("cluster"), facts.get(i++)));
                    }
                    return out;
                });
    }

    /** A fact with the cluster it was stored under. */
    public record Stored<T>(String cluster, T fact) {
    }

    private static Set<String> strings(Iterable<Row> rows, String column) {
        Set<String> out = new LinkedHashSet<>();
        rows.forEach(r -> out.add(r.getString(column)));
        return out;
    }

    private static void requireObjectRelation(String table) {
        if (!OBJECT_RELATIONS.contains(table)) {
            throw new IllegalArgumentException("not a governance object table: " + table);
        }
    }
}
