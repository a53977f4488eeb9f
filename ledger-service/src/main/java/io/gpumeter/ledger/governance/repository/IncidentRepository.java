package io.gpumeter.ledger.governance.repository;

import io.gpumeter.common.problem.Page;
import io.gpumeter.common.problem.Window;
import io.gpumeter.common.sql.PagedQuery;
import io.gpumeter.common.triage.RootCauseClass;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.domain.IncidentIds;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

import static io.gpumeter.ledger.governance.repository.Sql.instant;
import static io.gpumeter.ledger.repository.Columns.offset;
import static io.gpumeter.ledger.repository.Columns.strings;
import static io.gpumeter.ledger.repository.Columns.times;

/**
 * The failure book: incidents written by derivation (what they are counted against is
 * {@link FailureExposureRepository}'s).
 */
@ApplicationScoped
public class IncidentRepository {

    private final Pool pool;

    public IncidentRepository(Pool pool) {
        this.pool = pool;
    }

    /** Replaces every incident of these subjects (pod uids, or node/PCI of cards). */
    public Uni<Void> replace(SqlConnection conn, String cluster, String scope, Collection<String> subjects, List<Incident> incidents) {
        if (subjects.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Uni<?> cleared = conn.preparedQuery("DELETE FROM ledger.gov_incident WHERE cluster = $1 AND scope = $2 AND subject = ANY($3)")
                .execute(Tuple.of(cluster, scope, subjects.toArray(String[]::new)));
        if (incidents.isEmpty()) {
            return cleared.replaceWithVoid();
        }
        return cleared.chain(() -> conn.preparedQuery("""
                        INSERT INTO ledger.gov_incident (cluster, incident_key, scope, subject, cause, root_class, node, gpu_pci, gpu_uuid,
                            namespace, pod, pod_uid, started_at, recovered_at, ended_at, occurrences, evidence, id)
                        SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                            $9::text[], $10::text[], $11::text[], $12::text[], $13::timestamptz[], $14::timestamptz[],
                            $15::timestamptz[], $16::int[], $17::text[], $18::text[]) AS u
                        ON CONFLICT DO NOTHING""")
                .execute(Tuple.from(List.of(cluster, strings(incidents, Incident::key), strings(incidents, Incident::scope),
                        strings(incidents, Incident::subject), strings(incidents, Incident::cause),
                        strings(incidents, i -> i.rootCause().name()), strings(incidents, Incident::node),
                        strings(incidents, Incident::gpuPci), strings(incidents, Incident::gpuUuid),
                        strings(incidents, Incident::namespace), strings(incidents, Incident::pod),
                        strings(incidents, Incident::podUid), times(incidents, Incident::startedAt),
                        times(incidents, Incident::recoveredAt), times(incidents, Incident::endedAt),
                        incidents.stream().map(Incident::occurrences).toArray(Integer[]::new),
                        strings(incidents, Incident::evidence),
                        strings(incidents, i -> IncidentIds.of(cluster, i))))))
                .replaceWithVoid();
    }

    /**
     * One stored incident, its cluster and its stable id ({@link IncidentIds}).
     */
    public record StoredIncident(String cluster, Incident incident, String id) {
    }

    /** The incident of this stable id, or null. */
    public Uni<StoredIncident> byId(String id) {
        return pool.preparedQuery("SELECT * FROM ledger.gov_incident WHERE id = $1 ORDER BY cluster, incident_key LIMIT 1")
                .execute(Tuple.of(id))
                .map(rows -> rows.size() == 0 ? null : incident(rows.iterator().next()));
    }

    /**
     * Gives up to {@code most} rows stored before incidents had ids theirs, computed by the rule every derivation
     * writes; answers how many it gave one.
     */
    public Uni<Integer> fillMissingIds(int most) {
        return pool.preparedQuery("SELECT cluster, incident_key, started_at FROM ledger.gov_incident WHERE id IS NULL LIMIT $1")
                .execute(Tuple.of(most))
                .chain(rows -> {
                    List<String> clusters = new ArrayList<>();
                    List<String> keys = new ArrayList<>();
                    List<String> ids = new ArrayList<>();
                    for (Row r : rows) {
                        clusters.add(r.getString("cluster"));
                        keys.add(r.getString("incident_key"));
                        ids.add(IncidentIds.of(r.getString("cluster"), r.getString("incident_key"),
                                instant(r.getOffsetDateTime("started_at"))));
                    }
                    if (ids.isEmpty()) {
                        return Uni.createFrom().item(0);
                    }
                    return pool.preparedQuery("""
                                    UPDATE ledger.gov_incident g SET id = u.id
                                    FROM unnest($1::text[], $2::text[], $3::text[]) AS u(cluster, incident_key, id)
                                    WHERE g.cluster = u.cluster AND g.incident_key = u.incident_key AND g.id IS NULL""")
                            .execute(Tuple.of(clusters.toArray(String[]::new), keys.toArray(String[]::new),
                                    ids.toArray(String[]::new)))
                            .map(updated -> ids.size());
                });
    }

    /** Incidents that started in [from, to). */
    public Uni<List<StoredIncident>> startedIn(Instant from, Instant to, String cluster) {
        return pool.preparedQuery("""
                        SELECT * FROM ledger.gov_incident WHERE started_at >= $1 AND started_at < $2 AND ($3::text IS NULL OR cluster = $3)
                        ORDER BY started_at, incident_key""")
                .execute(Tuple.of(offset(from), offset(to), cluster))
                .map(IncidentRepository::stored);
    }

    /**
     * Incidents that started in [from, to) naming one of these pods ("namespace/pod"), of one cluster where given, by
     * start: the started_at index narrows to the window, the pods are matched in it.
     */
    public Uni<List<StoredIncident>> startedOfPods(Instant from, Instant to, String cluster, Collection<String> pods) {
        return pool.preparedQuery("""
                        SELECT * FROM ledger.gov_incident
                        WHERE started_at >= $1 AND started_at < $2 AND ($3::text IS NULL OR cluster = $3)
                          AND namespace IS NOT NULL AND pod IS NOT NULL AND namespace || '/' || pod = ANY($4)
                        ORDER BY started_at, incident_key, cluster""")
                .execute(Tuple.of(offset(from), offset(to), cluster, pods.toArray(String[]::new)))
                .map(IncidentRepository::stored);
    }

    /** Incidents that started in [from, to) on these nodes of a cluster. */
    public Uni<List<StoredIncident>> startedOn(Instant from, Instant to, String cluster, Collection<String> nodes) {
        return pool.preparedQuery("""
                        SELECT * FROM ledger.gov_incident WHERE cluster = $1 AND node = ANY($2) AND started_at >= $3 AND started_at < $4
                        ORDER BY started_at, incident_key""")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new), offset(from), offset(to)))
                .map(IncidentRepository::stored);
    }

    /**
     * The window of the incidents of [from, to) (with {@code openOnly}, those neither recovered nor ended, a null bound
     * being none) of one cause and cluster where given, by start.
     */
    public Uni<Page<StoredIncident>> listed(Instant from, Instant to, boolean openOnly, String cause, String cluster,
                                            Window window) {
        // Without open both bounds are given: plain comparisons let the index on started_at serve the query.
        String where = "FROM ledger.gov_incident WHERE " + (openOnly
                ? "recovered_at IS NULL AND ended_at IS NULL AND ($1::timestamptz IS NULL OR started_at >= $1) "
                        + "AND ($2::timestamptz IS NULL OR started_at < $2)"
                : "started_at >= $1 AND started_at < $2")
                + " AND ($3::text IS NULL OR cluster = $3) AND ($4::text IS NULL OR cause = $4)";
        return PagedQuery.run(pool, "*", where, "started_at, incident_key, cluster",
                Arrays.asList(offset(from), offset(to), cluster, cause), window, IncidentRepository::incident);
    }

    private static List<StoredIncident> stored(RowSet<Row> rows) {
        List<StoredIncident> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(incident(r));
        }
        return out;
    }

    /** A stored row; one stored before ids (until the backfill reaches it) gets the id the rule gives it. */
    public static StoredIncident incident(Row r) {
        String cluster = r.getString("cluster");
        Incident incident = new Incident(r.getString("incident_key"),
                r.getString("scope"), r.getString("subject"), r.getString("cause"),
                RootCauseClass.valueOf(r.getString("root_class")), r.getString("node"), r.getString("gpu_pci"),
                r.getString("gpu_uuid"), r.getString("namespace"), r.getString("pod"), r.getString("pod_uid"),
                instant(r.getOffsetDateTime("started_at")), instant(r.getOffsetDateTime("recovered_at")),
                instant(r.getOffsetDateTime("ended_at")), r.getInteger("occurrences"), r.getString("evidence"));
        String id = r.getString("id");
        return new StoredIncident(cluster, incident, id != null ? id : IncidentIds.of(cluster, incident));
    }
}
