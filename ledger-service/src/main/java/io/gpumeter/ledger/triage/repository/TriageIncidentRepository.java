package io.gpumeter.ledger.triage.repository;

import io.gpumeter.ledger.governance.repository.IncidentRepository.StoredIncident;
import io.gpumeter.ledger.governance.repository.IncidentRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import static io.gpumeter.ledger.repository.Columns.offset;

/**
 * The incidents a triage reads: those that may lead its subject's diagnosis, those of the same cause that count its
 * recurrence, and those open elsewhere that widen its scope; each branch through the incident book's indexes.
 */
@ApplicationScoped
public class TriageIncidentRepository {

    /** How far back the incidents of a subject's nodes are read: the recurrence's week and the day before it. */
    public static final Duration INCIDENT_LOOK_BACK = Duration.ofDays(8);

    private final Pool pool;

    public TriageIncidentRepository(Pool pool) {
        this.pool = pool;
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
                .map(TriageIncidentRepository::incidents);
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
                .map(TriageIncidentRepository::incidents);
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
                .map(TriageIncidentRepository::incidents);
    }

    private static List<StoredIncident> incidents(RowSet<Row> rows) {
        List<StoredIncident> out = new ArrayList<>();
        rows.forEach(r -> out.add(IncidentRepository.incident(r)));
        return out;
    }
}
