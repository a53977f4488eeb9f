package io.gpumeter.ledger.governance.repository;

import io.gpumeter.ledger.governance.domain.QueueSource;
import io.gpumeter.ledger.governance.domain.QueueState;
import io.gpumeter.ledger.governance.domain.WaitEpisode;
import io.gpumeter.ledger.repository.KeptPrepared;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.governance.repository.Sql.instant;
import static io.gpumeter.ledger.repository.Columns.offset;
import static io.gpumeter.ledger.repository.Columns.strings;
import static io.gpumeter.ledger.repository.Columns.times;

/** The queue books: wait episodes and current queue states, written by derivation and read by the queue reports. */
@ApplicationScoped
public class QueueBookRepository {

    /**
     * A LocalQueue's ClusterQueue from its newest stored version, for workloads not admitted yet: the table
     * {@code lq(cluster, namespace, name, cq)} of a WITH clause.
     */
    public static final String LOCAL_QUEUES = """
            WITH lq AS (SELECT DISTINCT ON (cluster, namespace, name) cluster, namespace, name, cluster_queue AS cq
                        FROM ledger.gov_queue_object_fact_fields WHERE kind = 'LOCAL_QUEUE'
                        ORDER BY cluster, namespace, name, revision DESC NULLS LAST, observed_at DESC)
            """;

    private final Pool pool;

    public QueueBookRepository(Pool pool) {
        this.pool = pool;
    }

    /** One stored wait, with its ClusterQueue resolved through the LocalQueue when the admission did not name it. */
    public record StoredWait(String cluster, QueueSource source, String uid, String namespace, String name,
                             String clusterQueue, String localQueue, String volcanoQueue, String scheduler,
                             Instant waitFrom, Instant reservedAt, Instant admittedAt, long waitMillis, boolean requeued) {
    }

    public Uni<Void> replace(SqlConnection conn, String cluster, QueueSource source, Collection<String> uids,
                             List<WaitEpisode> episodes, List<QueueState> states) {
        if (uids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String[] keys = uids.toArray(String[]::new);
        Uni<?> cleared = conn.preparedQuery("DELETE FROM ledger.gov_queue_wait WHERE cluster = $1 AND source = $2 AND object_uid = ANY($3)")
                .execute(Tuple.of(cluster, source.name(), keys))
                .chain(() -> conn.preparedQuery("DELETE FROM ledger.gov_queue_item WHERE cluster = $1 AND source = $2 AND object_uid = ANY($3)")
                        .execute(Tuple.of(cluster, source.name(), keys)));
        return cleared.chain(() -> insertEpisodes(conn, cluster, episodes)).chain(() -> insertStates(conn, cluster, states));
    }

    private Uni<Void> insertEpisodes(SqlConnection conn, String cluster, List<WaitEpisode> episodes) {
        if (episodes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return conn.preparedQuery(KeptPrepared.BULK_WRITE.sql("""
                        INSERT INTO ledger.gov_queue_wait (cluster, source, object_uid, reserved_at, namespace, name, cluster_queue,
                            local_queue, volcano_queue, scheduler, wait_from, admitted_at, wait_ms, requeued)
                        SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[],
                            $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::timestamptz[], $13::bigint[], $14::boolean[]) AS u
                        ON CONFLICT DO NOTHING"""))
                .execute(Tuple.from(List.of(cluster,
                        strings(episodes, e -> e.keys().source().name()), strings(episodes, e -> e.keys().uid()),
                        times(episodes, WaitEpisode::reservedAt), strings(episodes, e -> e.keys().namespace()),
                        strings(episodes, e -> e.keys().name()), strings(episodes, e -> e.keys().clusterQueue()),
                        strings(episodes, e -> e.keys().localQueue()), strings(episodes, e -> e.keys().volcanoQueue()),
                        strings(episodes, e -> e.keys().scheduler()), times(episodes, WaitEpisode::waitFrom),
                        times(episodes, WaitEpisode::admittedAt),
                        episodes.stream().map(WaitEpisode::waitMillis).toArray(Long[]::new),
                        episodes.stream().map(WaitEpisode::requeued).toArray(Boolean[]::new))))
                .replaceWithVoid();
    }

    private Uni<Void> insertStates(SqlConnection conn, String cluster, List<QueueState> states) {
        if (states.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return conn.preparedQuery(KeptPrepared.BULK_WRITE.sql("""
                        INSERT INTO ledger.gov_queue_item (cluster, source, object_uid, namespace, name, cluster_queue, local_queue,
                            volcano_queue, scheduler, created_at, state, waiting_since, reason_class, reason, message, rejections, admissions)
                        SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                            $9::text[], $10::timestamptz[], $11::text[], $12::timestamptz[], $13::text[], $14::text[], $15::text[],
                            $16::int[], $17::int[]) AS u"""))
                .execute(Tuple.from(List.of(cluster,
                        strings(states, s -> s.keys().source().name()), strings(states, s -> s.keys().uid()),
                        strings(states, s -> s.keys().namespace()), strings(states, s -> s.keys().name()),
                        strings(states, s -> s.keys().clusterQueue()), strings(states, s -> s.keys().localQueue()),
                        strings(states, s -> s.keys().volcanoQueue()), strings(states, s -> s.keys().scheduler()),
                        times(states, QueueState::createdAt), strings(states, s -> s.state().name()),
                        times(states, QueueState::waitingSince),
                        strings(states, s -> s.reasonClass() == null ? null : s.reasonClass().label()),
                        strings(states, QueueState::reason), strings(states, QueueState::message),
                        states.stream().map(QueueState::rejections).toArray(Integer[]::new),
                        states.stream().map(QueueState::admissions).toArray(Integer[]::new))))
                .replaceWithVoid();
    }

    /** Waits of the given sources whose admission falls in [from, to); cluster null means every cluster. */
    public Uni<List<StoredWait>> waits(Instant from, Instant to, String cluster, Collection<QueueSource> sources) {
        return pool.preparedQuery(LOCAL_QUEUES + """
                        SELECT w.*, coalesce(w.cluster_queue, lq.cq) AS cq FROM ledger.gov_queue_wait w
                        LEFT JOIN lq ON lq.cluster = w.cluster AND lq.namespace = w.namespace AND lq.name = w.local_queue
                        WHERE w.admitted_at >= $1 AND w.admitted_at < $2 AND ($3::text IS NULL OR w.cluster = $3)
                          AND w.source = ANY($4)
                        ORDER BY w.admitted_at, w.object_uid""")
                .execute(Tuple.of(offset(from), offset(to), cluster, sources.stream().map(Enum::name).toArray(String[]::new)))
                .map(rows -> {
                    List<StoredWait> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new StoredWait(r.getString("cluster"), QueueSource.valueOf(r.getString("source")),
                                r.getString("object_uid"), r.getString("namespace"), r.getString("name"), r.getString("cq"),
                                r.getString("local_queue"), r.getString("volcano_queue"), r.getString("scheduler"),
                                instant(r.getOffsetDateTime("wait_from")), instant(r.getOffsetDateTime("reserved_at")),
                                instant(r.getOffsetDateTime("admitted_at")), r.getLong("wait_ms"), r.getBoolean("requeued")));
                    }
                    return out;
                });
    }

    /** One stored queue state. */
    public record StoredItem(String cluster, QueueSource source, String uid, String namespace, String name,
                             String clusterQueue, String localQueue, String volcanoQueue, String scheduler,
                             Instant createdAt, String state, Instant waitingSince, String reasonClass, String reason,
                             String message, int rejections, int admissions) {
    }

    /** What waits now: pending or evicted objects, oldest wait first. */
    public Uni<List<StoredItem>> waiting(String cluster) {
        return items("w.state IN ('PENDING', 'EVICTED') AND ($1::text IS NULL OR w.cluster = $1)",
                Tuple.of(cluster), "w.waiting_since NULLS LAST, w.namespace, w.name");
    }

    /** Every Kueue workload created in [from, to), for rejection rates per ClusterQueue. */
    public Uni<List<StoredItem>> kueueItems(Instant from, Instant to, String cluster) {
        return items("w.source = 'KUEUE' AND w.created_at >= $1 AND w.created_at < $2 AND ($3::text IS NULL OR w.cluster = $3)",
                Tuple.of(offset(from), offset(to), cluster), "w.created_at");
    }

    private Uni<List<StoredItem>> items(String where, Tuple params, String order) {
        return pool.preparedQuery(LOCAL_QUEUES + "SELECT w.*, coalesce(w.cluster_queue, lq.cq) AS cq FROM ledger.gov_queue_item w "
                        + "LEFT JOIN lq ON lq.cluster = w.cluster AND lq.namespace = w.namespace AND lq.name = w.local_queue "
                        + "WHERE " + where + " ORDER BY " + order)
                .execute(params)
                .map(rows -> {
                    List<StoredItem> out = new ArrayList<>();
                    rows.forEach(r -> out.add(storedItem(r)));
                    return out;
                });
    }

    /** A row of {@code gov_queue_item} with its ClusterQueue as {@code cq} (its own, else the one its LocalQueue feeds). */
    public static StoredItem storedItem(Row r) {
        return new StoredItem(r.getString("cluster"), QueueSource.valueOf(r.getString("source")),
                r.getString("object_uid"), r.getString("namespace"), r.getString("name"), r.getString("cq"),
                r.getString("local_queue"), r.getString("volcano_queue"), r.getString("scheduler"),
                instant(r.getOffsetDateTime("created_at")), r.getString("state"),
                instant(r.getOffsetDateTime("waiting_since")), r.getString("reason_class"),
                r.getString("reason"), r.getString("message"), r.getInteger("rejections"),
                r.getInteger("admissions"));
    }

    /** The queues behind a LocalQueue and a PodGroup name, each null when the ledger holds no such object. */
    public record QueuesBehind(String clusterQueue, String volcanoQueue) {
    }

    /**
     * The ClusterQueue a LocalQueue points to and the Volcano queue of a PodGroup, from the newest stored version of
     * each, in one read; a null name is not looked up.
     */
    public Uni<QueuesBehind> queuesBehind(String cluster, String namespace, String localQueue, String podGroup) {
        if (localQueue == null && podGroup == null) {
            return Uni.createFrom().item(new QueuesBehind(null, null));
        }
        return pool.preparedQuery("""
                        SELECT (SELECT cluster_queue FROM ledger.gov_queue_object_fact_fields
                                WHERE cluster = $1 AND kind = 'LOCAL_QUEUE' AND namespace = $2 AND name = $3
                                ORDER BY revision DESC NULLS LAST, observed_at DESC LIMIT 1) AS cq,
                               (SELECT queue FROM ledger.gov_pod_group_fact_fields
                                WHERE cluster = $1 AND namespace = $2 AND name = $4
                                ORDER BY observed_at DESC LIMIT 1) AS vq""")
                .execute(Tuple.of(cluster, namespace, localQueue, podGroup))
                .map(rows -> {
                    Row r = rows.iterator().next();
                    return new QueuesBehind(r.getString("cq"), r.getString("vq"));
                });
    }

    /** A pending Kueue Workload's place in its queues as last read from the visibility API. */
    public record StoredPosition(String clusterQueue, String localQueue, Integer priority, int positionInClusterQueue,
                                 Integer positionInLocalQueue, Instant observedAt) {
    }

    /** The latest position of every Workload read from the visibility API, keyed {@code cluster|namespace|name}. */
    public Uni<Map<String, StoredPosition>> latestPositions(String cluster) {
        return pool.preparedQuery("""
                        SELECT DISTINCT ON (cluster, namespace, workload) * FROM ledger.gov_pending_position
                        WHERE ($1::text IS NULL OR cluster = $1)
                        ORDER BY cluster, namespace, workload, observed_at DESC, cluster_queue""")
                .execute(Tuple.of(cluster))
                .map(rows -> {
                    Map<String, StoredPosition> out = new HashMap<>();
                    for (Row r : rows) {
                        out.put(r.getString("cluster") + "|" + r.getString("namespace") + "|" + r.getString("workload"),
                                new StoredPosition(r.getString("cluster_queue"), r.getString("local_queue"),
                                        r.getInteger("priority"), r.getInteger("position_cq"), r.getInteger("position_lq"),
                                        instant(r.getOffsetDateTime("observed_at"))));
                    }
                    return out;
                });
    }
}
