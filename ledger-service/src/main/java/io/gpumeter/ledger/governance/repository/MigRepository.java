package io.gpumeter.ledger.governance.repository;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.ledger.governance.domain.MigInstanceRun;
import io.gpumeter.ledger.governance.domain.MigNodeVersion;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static io.gpumeter.ledger.governance.repository.Sql.instant;
import static io.gpumeter.ledger.repository.Columns.offset;
import static io.gpumeter.ledger.repository.Columns.strings;
import static io.gpumeter.ledger.repository.Columns.times;

/**
 * What MIG consistency reads and keeps: the layout labels and allocatable of each node version (read out of the stored
 * payloads, never the whole of a node's labels), the MIG instances dcgm-exporter reported as runs, and the nodes due to
 * be derived again.
 */
@ApplicationScoped
public class MigRepository {

    /** The labels the layout and its views are read from. */
    static final List<String> LABELS = List.of("nvidia.com/mig.config", "nvidia.com/mig.config.state",
            "nvidia.com/mig.strategy", "nvidia.com/gpu.product", "nvidia.com/gpu.count");

    private static final TypeReference<Map<String, Long>> RESOURCES = new TypeReference<>() {
    };

    private final ObjectMapper json;

    public MigRepository(ObjectMapper json) {
        this.json = json;
    }

    /**
     * Widens the runs of the MIG instances a usage delivery reports (samples of scope MIG_INSTANCE naming their node
     * and profile), or starts new ones after a gap longer than {@code staleness}; a run's last sighting moves on only
     * once it is a minute old, so steady scrapes rewrite a row once a minute at most. Returns the nodes with a new
     * run: an instance that was not there before.
     */
    public Uni<Set<String>> recordInstances(SqlConnection conn, String cluster, List<UsageSample> samples,
                                            Duration staleness) {
        Map<List<String>, Instant[]> seen = new LinkedHashMap<>();
        for (UsageSample s : samples) {
            seen.merge(List.of(s.node(), s.gpuUuid(), s.scopeKey(), s.migProfile().strip()), new Instant[]{s.at(), s.at()},
                    (a, b) -> new Instant[]{a[0].isBefore(b[0]) ? a[0] : b[0], a[1].isAfter(b[1]) ? a[1] : b[1]});
        }
        if (seen.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        List<Map.Entry<List<String>, Instant[]>> rows = new ArrayList<>(seen.entrySet());
        // The update and the insert read the table as it was before the statement: a run the update widens is one the
        // insert finds, so an instance seen again never becomes a second run.
        return conn.preparedQuery("""
                        WITH u AS (SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[],
                                                        $7::timestamptz[]) AS u(node, gpu, inst, profile, f, l)),
                        widened AS (
                            UPDATE ledger.gov_mig_instance_run r SET first_seen = least(r.first_seen, u.f),
                                                                     last_seen = greatest(r.last_seen, u.l)
                            FROM u WHERE r.cluster = $1 AND r.node = u.node AND r.gpu_uuid = u.gpu AND r.instance = u.inst
                              AND r.profile = u.profile AND r.first_seen <= u.l + $8::int * interval '1 second'
                              AND r.last_seen >= u.f - $8::int * interval '1 second'
                              AND (u.f < r.first_seen OR u.l > r.last_seen + interval '1 minute')
                            RETURNING r.node)
                        INSERT INTO ledger.gov_mig_instance_run (cluster, node, gpu_uuid, instance, profile, first_seen, last_seen)
                        SELECT $1, u.node, u.gpu, u.inst, u.profile, u.f, u.l FROM u
                        WHERE NOT EXISTS (SELECT 1 FROM ledger.gov_mig_instance_run r
                                          WHERE r.cluster = $1 AND r.node = u.node AND r.gpu_uuid = u.gpu
                                            AND r.instance = u.inst AND r.profile = u.profile
                                            AND r.first_seen <= u.l + $8::int * interval '1 second'
                                            AND r.last_seen >= u.f - $8::int * interval '1 second')
                        ON CONFLICT DO NOTHING
                        RETURNING node""")
                .execute(Tuple.from(List.of(cluster, strings(rows, e -> e.getKey().get(0)),
                        strings(rows, e -> e.getKey().get(1)), strings(rows, e -> e.getKey().get(2)),
                        strings(rows, e -> e.getKey().get(3)), times(rows, e -> e.getValue()[0]),
                        times(rows, e -> e.getValue()[1]), (int) staleness.toSeconds())))
                .map(result -> {
                    Set<String> nodes = new LinkedHashSet<>();
                    result.forEach(r -> nodes.add(r.getString("node")));
                    return nodes;
                });
    }

    /** Every version of these nodes, labels and statuses, by node. */
    public Uni<Map<String, List<MigNodeVersion>>> versions(SqlClient db, String cluster, Collection<String> nodes) {
        return db.preparedQuery("""
                        SELECT name, observed_at, revision, event_type, false AS status, payload -> 'labels' ->> $3 AS config,
                               payload -> 'labels' ->> $4 AS state, payload -> 'labels' ->> $5 AS strategy,
                               payload -> 'labels' ->> $6 AS product, payload -> 'labels' ->> $7 AS count, NULL AS allocatable
                        FROM ledger.node_fact WHERE cluster = $1 AND name = ANY($2)
                        UNION ALL
                        SELECT name, observed_at, revision, event_type, true, payload -> 'gpuLabels' ->> $3,
                               payload -> 'gpuLabels' ->> $4, payload -> 'gpuLabels' ->> $5, payload -> 'gpuLabels' ->> $6,
                               payload -> 'gpuLabels' ->> $7, coalesce(payload -> 'allocatable', '{}')::text
                        FROM ledger.gov_node_status_fact WHERE cluster = $1 AND name = ANY($2)""")
                .execute(Tuple.from(List.of(cluster, nodes.toArray(String[]::new), LABELS.get(0), LABELS.get(1),
                        LABELS.get(2), LABELS.get(3), LABELS.get(4))))
                .map(rows -> {
                    Map<String, List<MigNodeVersion>> out = new HashMap<>();
                    for (Row r : rows) {
                        Map<String, String> labels = new TreeMap<>();
                        for (int i = 0; i < LABELS.size(); i++) {
                            String v = r.getString(new String[]{"config", "state", "strategy", "product", "count"}[i]);
                            if (v != null) {
                                labels.put(LABELS.get(i), v);
                            }
                        }
                        Long revision = r.getLong("revision");
                        out.computeIfAbsent(r.getString("name"), n -> new ArrayList<>()).add(new MigNodeVersion(
                                instant(r.getOffsetDateTime("observed_at")), revision == null ? 0 : revision,
                                "DELETED".equals(r.getString("event_type")), labels,
                                r.getBoolean("status") ? resources(r.getString("allocatable")) : null));
                    }
                    return out;
                });
    }

    /** Every instance run of these nodes, by node. */
    public Uni<Map<String, List<MigInstanceRun>>> runs(SqlClient db, String cluster, Collection<String> nodes) {
        return db.preparedQuery("""
                        SELECT node, gpu_uuid, instance, profile, first_seen, last_seen FROM ledger.gov_mig_instance_run
                        WHERE cluster = $1 AND node = ANY($2)""")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, List<MigInstanceRun>> out = new HashMap<>();
                    rows.forEach(r -> out.computeIfAbsent(r.getString("node"), n -> new ArrayList<>()).add(new MigInstanceRun(
                            r.getString("gpu_uuid"), r.getString("instance"), r.getString("profile"),
                            instant(r.getOffsetDateTime("first_seen")), instant(r.getOffsetDateTime("last_seen")))));
                    return out;
                });
    }

    /** Sets when each of these nodes is due again (null: not at all). */
    public Uni<Void> recheck(SqlConnection conn, String cluster, Map<String, Instant> dueAt) {
        if (dueAt.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Map.Entry<String, Instant>> due = dueAt.entrySet().stream().filter(e -> e.getValue() != null).toList();
        return conn.preparedQuery("DELETE FROM ledger.gov_mig_recheck WHERE cluster = $1 AND node = ANY($2)")
                .execute(Tuple.of(cluster, dueAt.keySet().toArray(String[]::new)))
                .chain(() -> due.isEmpty() ? Uni.createFrom().voidItem() : conn.preparedQuery("""
                                INSERT INTO ledger.gov_mig_recheck (cluster, node, due_at)
                                SELECT $1, u.* FROM unnest($2::text[], $3::timestamptz[]) AS u
                                ON CONFLICT (cluster, node) DO UPDATE SET due_at = excluded.due_at""")
                        .execute(Tuple.of(cluster, strings(due, Map.Entry::getKey), times(due, Map.Entry::getValue)))
                        .replaceWithVoid());
    }

    /** The nodes due by {@code now}, by cluster. */
    public Uni<Map<String, List<String>>> due(Pool pool, Instant now) {
        return pool.preparedQuery("SELECT cluster, node FROM ledger.gov_mig_recheck WHERE due_at <= $1 ORDER BY cluster, node")
                .execute(Tuple.of(offset(now)))
                .map(rows -> {
                    Map<String, List<String>> out = new TreeMap<>();
                    rows.forEach(r -> out.computeIfAbsent(r.getString("cluster"), c -> new ArrayList<>()).add(r.getString("node")));
                    return out;
                });
    }

    private Map<String, Long> resources(String text) {
        try {
            Map<String, Long> out = json.readValue(text, RESOURCES);
            return out == null ? Map.of() : out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
