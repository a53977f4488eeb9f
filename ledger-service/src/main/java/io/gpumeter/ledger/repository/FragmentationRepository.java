package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.ResourceSliceFact;
import io.gpumeter.ledger.allocation.domain.UnitKind;
import io.gpumeter.ledger.dra.domain.DraPlanner;
import io.gpumeter.ledger.fragmentation.domain.HeldUnit;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * What the fragmentation probe reads: the nodes as they were at an instant, the ResourceSlices NVIDIA's DRA driver
 * published for them, and the units held then.
 */
@ApplicationScoped
public class FragmentationRepository {

    /** A node's newest version at the instant, with the cluster it belongs to. */
    public record NodeAt(String cluster, NodeFact node) {
    }

    /**
     * A node as its first sighting shows it (its newest version within the sighting's span), when it was first
     * observed, and the creation its status versions of that version's uid tell (null when none does).
     */
    public record FirstSighting(String cluster, NodeFact node, Instant observedAt, Instant created) {
    }

    /** A ResourceSlice's first stored version, with its cluster. */
    public record FirstSlice(String cluster, ResourceSliceFact slice) {
    }

    /** The newest version by $1 of every node, of cluster $2 (null: of every cluster). */
    static final String NODES_AT = """
            SELECT cluster, event_type, convert_to(payload::text, 'UTF8') AS p FROM (
                SELECT DISTINCT ON (cluster, name) cluster, event_type, payload FROM ledger.node_fact
                WHERE observed_at <= $1 AND ($2::text IS NULL OR cluster = $2)
                ORDER BY cluster, name, revision DESC NULLS LAST, observed_at DESC, event_type = 'DELETED' DESC) n
            WHERE event_type <> 'DELETED'
            ORDER BY cluster""";

    /**
     * Every node's first sighting, of cluster $1 (null: of every cluster), its versions within $2 seconds of it. The
     * versions are cut to the cluster where they are read, not only by the join on the first sightings: PostgreSQL does
     * not carry a condition on a grouped subquery's output over to the table it is joined to, so the join alone read
     * every cluster's node versions, a cost that grew with the other clusters in the ledger (docs/scale.md).
     */
    static final String FIRST_SIGHTINGS = """
            WITH first AS (SELECT cluster, name, min(observed_at) AS at FROM ledger.node_fact
                           WHERE $1::text IS NULL OR cluster = $1 GROUP BY cluster, name)
            SELECT v.cluster, v.first_at, convert_to(v.payload::text, 'UTF8') AS p,
                   (SELECT min((s.payload ->> 'createdAt')::timestamptz) FROM ledger.gov_node_status_fact s
                    WHERE s.cluster = v.cluster AND s.name = v.name AND s.payload ->> 'uid' = v.payload ->> 'uid'
                      AND s.payload ->> 'createdAt' IS NOT NULL) AS created
            FROM (SELECT DISTINCT ON (n.cluster, n.name) n.cluster, n.name, n.event_type, n.payload, f.at AS first_at
                  FROM ledger.node_fact n JOIN first f ON f.cluster = n.cluster AND f.name = n.name
                  WHERE n.observed_at <= f.at + make_interval(secs => $2) AND ($1::text IS NULL OR n.cluster = $1)
                  ORDER BY n.cluster, n.name, n.revision DESC NULLS LAST, n.observed_at DESC,
                           n.event_type = 'DELETED' DESC) v
            WHERE v.event_type <> 'DELETED'
            ORDER BY v.cluster, v.name""";

    private final Pool pool;
    private final ObjectMapper json;

    public FragmentationRepository(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    /** The newest version of every node observed by {@code at}; nodes whose newest version is a deletion are gone. */
    public Uni<List<NodeAt>> nodes(Instant at, String cluster) {
        return pool.preparedQuery(NODES_AT).execute(Tuple.of(toOffset(at), cluster))
                .map(rows -> {
                    List<NodeAt> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new NodeAt(r.getString("cluster"), StoredPayloads.decode(json, r, NodeFact.class)));
                    }
                    return out;
                });
    }

    /**
     * The newest version by {@code at} of every ResourceSlice of NVIDIA's DRA driver, by cluster; slices whose newest
     * version is a deletion are gone.
     */
    public Uni<Map<String, List<ResourceSliceFact>>> draSlices(Instant at, String cluster) {
        return pool.preparedQuery("""
                        SELECT cluster, convert_to(payload::text, 'UTF8') AS p FROM (
                            SELECT DISTINCT ON (cluster, name) cluster, event_type, payload FROM ledger.resource_slice_fact
                            WHERE observed_at <= $1 AND ($2::text IS NULL OR cluster = $2) AND driver = $3
                            ORDER BY cluster, name, revision DESC NULLS LAST, observed_at DESC, event_type = 'DELETED' DESC) s
                        WHERE event_type <> 'DELETED'
                        ORDER BY cluster""")
                .execute(Tuple.of(toOffset(at), cluster, DraPlanner.NVIDIA_GPU_DRIVER))
                .map(rows -> {
                    Map<String, List<ResourceSliceFact>> out = new HashMap<>();
                    for (Row r : rows) {
                        out.computeIfAbsent(r.getString("cluster"), k -> new ArrayList<>())
                                .add(StoredPayloads.decode(json, r, ResourceSliceFact.class));
                    }
                    return out;
                });
    }

    /**
     * Every node's first sighting: when it was first observed, its newest version observed within {@code sighting} of
     * that (the registrations that came with the first sighting), and the creation its status versions of that
     * version's uid tell. What an instant before the collector first saw a node needs to hold it in the inventory
     * from when it joined the cluster ({@code InventoryStart}).
     */
    public Uni<List<FirstSighting>> firstSightings(String cluster, Duration sighting) {
        return pool.preparedQuery(FIRST_SIGHTINGS).execute(Tuple.of(cluster, (double) sighting.toSeconds()))
                .map(rows -> {
                    List<FirstSighting> out = new ArrayList<>();
                    for (Row r : rows) {
                        OffsetDateTime created = r.getOffsetDateTime("created");
                        out.add(new FirstSighting(r.getString("cluster"), StoredPayloads.decode(json, r, NodeFact.class),
                                r.getOffsetDateTime("first_at").toInstant(), created == null ? null : created.toInstant()));
                    }
                    return out;
                });
    }

    /** The first version of every ResourceSlice of NVIDIA's DRA driver first observed after {@code at}. */
    public Uni<List<FirstSlice>> slicesFirstSeenAfter(Instant at, String cluster) {
        return pool.preparedQuery("""
                        SELECT cluster, convert_to(payload::text, 'UTF8') AS p FROM (
                            SELECT DISTINCT ON (cluster, name) cluster, event_type, observed_at, payload
                            FROM ledger.resource_slice_fact WHERE ($2::text IS NULL OR cluster = $2) AND driver = $3
                            ORDER BY cluster, name, observed_at, revision NULLS FIRST, event_type = 'DELETED') s
                        WHERE observed_at > $1 AND event_type <> 'DELETED'
                        ORDER BY cluster""")
                .execute(Tuple.of(toOffset(at), cluster, DraPlanner.NVIDIA_GPU_DRIVER))
                .map(rows -> {
                    List<FirstSlice> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new FirstSlice(r.getString("cluster"), StoredPayloads.decode(json, r, ResourceSliceFact.class)));
                    }
                    return out;
                });
    }

    /** Every unit held at {@code at}, with its card when a source named it. */
    public Uni<List<HeldUnit>> held(Instant at, String cluster) {
        return pool.preparedQuery("""
                        SELECT cluster, node, gpu_uuid, unit_kind, mig_profile, coalesce(cores, 0) AS cores,
                               coalesce(memory_mib, 0) AS memory_mib
                        FROM ledger.allocation_segment
                        WHERE seg_start <= $1 AND (seg_end IS NULL OR seg_end > $1) AND ($2::text IS NULL OR cluster = $2)
                        ORDER BY cluster, node, since, pod_uid, unit_index""")
                .execute(Tuple.of(toOffset(at), cluster))
                .map(rows -> {
                    List<HeldUnit> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new HeldUnit(r.getString("cluster"), r.getString("node"), r.getString("gpu_uuid"),
                                UnitKind.valueOf(r.getString("unit_kind")), r.getString("mig_profile"),
                                r.getInteger("cores"), r.getLong("memory_mib")));
                    }
                    return out;
                });
    }
}
