package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.repository.IncidentRepository;
import io.gpumeter.ledger.supply.domain.CardFailures;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/** What the supply read takes beside the inventory: the nodes' status versions and the cards' failures. */
@ApplicationScoped
public class SupplyRepository {

    /** One status version of a node, with its cluster. */
    public record NodeStatus(String cluster, NodeStatusFact status) {
    }

    /** One incident of the failure book, with its cluster. */
    public record ClusterIncident(String cluster, Incident incident) {
    }

    private final Pool pool;
    private final ObjectMapper json;

    public SupplyRepository(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    /** Every node status version observed before {@code before}: cordons are read from them. */
    public Uni<List<NodeStatus>> statuses(Instant before, String cluster) {
        return pool.preparedQuery("""
                        SELECT cluster, convert_to(payload::text, 'UTF8') AS p FROM ledger.gov_node_status_fact
                        WHERE observed_at < $1 AND ($2::text IS NULL OR cluster = $2)
                        ORDER BY cluster, name""")
                .execute(Tuple.of(toOffset(before), cluster))
                .map(rows -> {
                    List<NodeStatus> out = new ArrayList<>(rows.size());
                    for (Row r : rows) {
                        out.add(new NodeStatus(r.getString("cluster"), StoredPayloads.decode(json, r, NodeStatusFact.class)));
                    }
                    return out;
                });
    }

    /**
     * The incidents of the failure book's card and node scopes ({@link CardFailures#SCOPES}) that started before
     * {@code end} and were not over by {@code from}: those that started in the window, and those that kept a card
     * failed in it.
     */
    public Uni<List<ClusterIncident>> cardIncidents(Instant from, Instant end, String cluster) {
        return pool.preparedQuery("""
                        SELECT * FROM ledger.gov_incident
                        WHERE scope = ANY($4) AND started_at < $2 AND ($3::text IS NULL OR cluster = $3)
                          AND (started_at >= $1 OR coalesce(recovered_at, ended_at, 'infinity') > $1)
                        ORDER BY cluster, started_at, incident_key""")
                .execute(Tuple.of(toOffset(from), toOffset(end), cluster, CardFailures.SCOPES.toArray(String[]::new)))
                .map(rows -> {
                    List<ClusterIncident> out = new ArrayList<>(rows.size());
                    for (Row r : rows) {
                        out.add(new ClusterIncident(r.getString("cluster"), IncidentRepository.incident(r).incident()));
                    }
                    return out;
                });
    }
}
