package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.ResourceSliceFact;
import io.gpumeter.ledger.domain.DraPlanner;
import io.gpumeter.ledger.domain.HeldUnit;
import io.gpumeter.ledger.domain.UnitKind;
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
 * What the fragmentation probe reads: the nodes as they were at an instant, the ResourceSlices NVIDIA's DRA driver
 * published for them, and the units held then.
 */
@ApplicationScoped
public class FragmentationRepository {

    /** A node's newest version at the instant, with the cluster it belongs to. */
    public record NodeAt(String cluster, NodeFact node) {
    }

    private final Pool pool;
    private final ObjectMapper json;

    public FragmentationRepository(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    /** The newest version of every node observed by {@code at}; nodes whose newest version is a deletion are gone. */
    public Uni<List<NodeAt>> nodes(Instant at, String cluster) {
        return pool.preparedQuery("""
                        SELECT cluster, event_type, convert_to(payload::text, 'UTF8') AS p FROM (
                            SELECT DISTINCT ON (cluster, name) cluster, event_type, payload FROM ledger.node_fact
                            WHERE observed_at <= $1 AND ($2::text IS NULL OR cluster = $2)
                            ORDER BY cluster, name, revision DESC NULLS LAST, observed_at DESC, event_type = 'DELETED' DESC) n
                        WHERE event_type <> 'DELETED'
                        ORDER BY cluster""")
                .execute(Tuple.of(toOffset(at), cluster))
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
