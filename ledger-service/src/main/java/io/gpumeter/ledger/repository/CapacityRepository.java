package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * What fleet capacity is computed from: the GPU inventory, the node versions that bound each node's life, and the
 * creation of each node as its status versions tell it.
 */
@ApplicationScoped
public class CapacityRepository {

    /** One observed node version, reduced to what capacity needs. */
    public record NodeVersion(String cluster, String node, String uid, boolean deleted, Instant observedAt,
                              String gpuCount, String product) {
    }

    /** One node of a cluster under one uid: a name deleted and created again is another uid. */
    public record NodeUid(String cluster, String node, String uid) {
    }

    /** One physical GPU of the inventory. */
    public record Card(String cluster, String uuid, String node, String model, Instant firstSeen) {
    }

    /**
     * Every node version observed before $1 and each node's first, of cluster $2 (null: of every cluster). The versions
     * are cut to the cluster where they are read: the join on the grouped first versions alone does not carry the
     * cluster over to node_fact, and read every cluster's versions (docs/scale.md, "Twenty clusters in one ledger").
     */
    static final String NODE_VERSIONS = """
            WITH first AS (SELECT cluster, name, min(observed_at) AS at FROM ledger.node_fact
                           WHERE $2::text IS NULL OR cluster = $2 GROUP BY cluster, name)
            SELECT n.cluster, n.name, n.payload ->> 'uid' AS uid, n.event_type = 'DELETED' AS deleted, n.observed_at,
                   n.payload -> 'labels' ->> 'nvidia.com/gpu.count' AS gpu_count,
                   n.payload -> 'labels' ->> 'nvidia.com/gpu.product' AS product
            FROM ledger.node_fact n JOIN first f ON f.cluster = n.cluster AND f.name = n.name
            WHERE (n.observed_at < $1 OR n.observed_at = f.at) AND ($2::text IS NULL OR n.cluster = $2)
            ORDER BY n.cluster, n.name, n.observed_at, n.revision NULLS FIRST, n.event_type = 'DELETED'""";

    private final Pool pool;

    public CapacityRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Every node version observed before {@code before}, and each node's first version whenever it was observed (a
     * node created before {@code before} but first seen after it lives from its creation), per node in the order they
     * happened (observation, then resource version, a deletion last among equals).
     */
    public Uni<List<NodeVersion>> nodeVersions(Instant before, String cluster) {
        return pool.preparedQuery(NODE_VERSIONS).execute(Tuple.of(toOffset(before), cluster))
                .map(rows -> {
                    List<NodeVersion> out = new ArrayList<>(rows.size());
                    for (Row r : rows) {
                        out.add(new NodeVersion(r.getString("cluster"), r.getString("name"), r.getString("uid"),
                                r.getBoolean("deleted"), r.getOffsetDateTime("observed_at").toInstant(),
                                r.getString("gpu_count"), r.getString("product")));
                    }
                    return out;
                });
    }

    /**
     * Each node uid's {@code metadata.creationTimestamp}, from any of its status versions that carries it (the
     * earliest, should two disagree).
     */
    public Uni<Map<NodeUid, Instant>> creations(String cluster) {
        return pool.preparedQuery("""
                        SELECT cluster, name, payload ->> 'uid' AS uid, min((payload ->> 'createdAt')::timestamptz) AS created
                        FROM ledger.gov_node_status_fact
                        WHERE ($1::text IS NULL OR cluster = $1) AND payload ->> 'uid' IS NOT NULL
                          AND payload ->> 'createdAt' IS NOT NULL
                        GROUP BY cluster, name, payload ->> 'uid'""")
                .execute(Tuple.of(cluster))
                .map(rows -> {
                    Map<NodeUid, Instant> out = new HashMap<>();
                    for (Row r : rows) {
                        out.put(new NodeUid(r.getString("cluster"), r.getString("name"), r.getString("uid")),
                                r.getOffsetDateTime("created").toInstant());
                    }
                    return out;
                });
    }

    /**
     * Every GPU of the inventory: one first seen after a window may still have been there in it, when it came with
     * its node's first sighting and the node was created before.
     */
    public Uni<List<Card>> cards(String cluster) {
        return pool.preparedQuery("""
                        SELECT cluster, uuid, node, model, first_seen FROM ledger.gpu_device
                        WHERE $1::text IS NULL OR cluster = $1
                        ORDER BY cluster, node, uuid""")
                .execute(Tuple.of(cluster))
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
