package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/** What fleet capacity is computed from: the GPU inventory and the node versions that bound each node's life. */
@ApplicationScoped
public class CapacityRepository {

    /** One observed node version, reduced to what capacity needs. */
    public record NodeVersion(String cluster, String node, boolean deleted, Instant observedAt, String gpuCount,
                              String product) {
    }

    /** One physical GPU of the inventory. */
    public record Card(String cluster, String uuid, String node, String model, Instant firstSeen) {
    }

    private final Pool pool;

    public CapacityRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Every node version observed before {@code before}, per node in the order they happened (observation, then
     * resource version, a deletion last among equals).
     */
    public Uni<List<NodeVersion>> nodeVersions(Instant before, String cluster) {
        return pool.preparedQuery("""
                        SELECT cluster, name, event_type = 'DELETED' AS deleted, observed_at,
                               payload -> 'labels' ->> 'nvidia.com/gpu.count' AS gpu_count,
                               payload -> 'labels' ->> 'nvidia.com/gpu.product' AS product
                        FROM ledger.node_fact
                        WHERE observed_at < $1 AND ($2::text IS NULL OR cluster = $2)
                        ORDER BY cluster, name, observed_at, revision NULLS FIRST, event_type = 'DELETED'""")
                .execute(Tuple.of(toOffset(before), cluster))
                .map(rows -> {
                    List<NodeVersion> out = new ArrayList<>(rows.size());
                    for (Row r : rows) {
                        out.add(new NodeVersion(r.getString("cluster"), r.getString("name"), r.getBoolean("deleted"),
                                r.getOffsetDateTime("observed_at").toInstant(), r.getString("gpu_count"),
                                r.getString("product")));
                    }
                    return out;
                });
    }

    /** Every GPU first seen before {@code before}. */
    public Uni<List<Card>> cards(Instant before, String cluster) {
        return pool.preparedQuery("""
                        SELECT cluster, uuid, node, model, first_seen FROM ledger.gpu_device
                        WHERE first_seen < $1 AND ($2::text IS NULL OR cluster = $2)
                        ORDER BY cluster, node, uuid""")
                .execute(Tuple.of(toOffset(before), cluster))
                .map(rows -> {
                    List<Card> out = new ArrayList<>(rows.size());
                    for (Row r : rows) {
                        out.add(new Card(r.getString("cluster"), r.getString("uuid"), r.getString("node"),
                                r.getString("model"), r.getOffsetDateTime("first_seen").toInstant()));
                    }
                    return out;
                });
    }
}
