package io.gpumeter.ledger.repository;

import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.ResourceSliceFact;
import io.gpumeter.ledger.domain.DraCards;
import io.gpumeter.ledger.domain.NodeInventory;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * The GPU inventory: every physical GPU UUID a node registration or a ResourceSlice of NVIDIA's DRA driver named, with
 * its node, model and memory.
 */
@ApplicationScoped
public class InventoryRepository {

    private final Pool pool;

    public InventoryRepository(Pool pool) {
        this.pool = pool;
    }

    /** Records the GPUs the newest version of each node registers. */
    public Uni<Void> record(SqlConnection conn, String cluster, List<NodeFact> latestNodes) {
        List<String> uuids = new ArrayList<>();
        List<String> nodes = new ArrayList<>();
        List<String> models = new ArrayList<>();
        List<Long> memories = new ArrayList<>();
        List<OffsetDateTime> seen = new ArrayList<>();
        for (NodeFact node : latestNodes) {
            NodeInventory inventory = new NodeInventory(node.name(), node.labels(), node.gpus());
            for (RegisteredGpu gpu : node.gpus()) {
                if (gpu.uuid() == null || gpu.uuid().isBlank()) {
                    continue;
                }
                uuids.add(gpu.uuid());
                nodes.add(node.name());
                models.add(inventory.modelOf(gpu.uuid()));
                memories.add(inventory.cardMemoryMib(gpu.uuid()));
                seen.add(toOffset(node.observedAt()));
            }
        }
        return upsert(conn, cluster, uuids, nodes, models, memories, seen);
    }

    /**
     * Records the cards NVIDIA's DRA driver publishes in these ResourceSlice versions: a node that runs the DRA
     * driver instead of the device plugin registers no GPUs, and its cards are known from its slices alone (their
     * model from {@code productName}, their memory from the {@code memory} capacity, first seen when the slice was).
     */
    public Uni<Void> recordSlices(SqlConnection conn, String cluster, List<ResourceSliceFact> slices) {
        List<String> uuids = new ArrayList<>();
        List<String> nodes = new ArrayList<>();
        List<String> models = new ArrayList<>();
        List<Long> memories = new ArrayList<>();
        List<OffsetDateTime> seen = new ArrayList<>();
        for (ResourceSliceFact slice : slices) {
            for (DraCards.Card card : DraCards.of(List.of(slice))) {
                uuids.add(card.uuid());
                nodes.add(card.node());
                models.add(card.model());
                memories.add(card.memoryMib());
                seen.add(toOffset(slice.observedAt()));
            }
        }
        return upsert(conn, cluster, uuids, nodes, models, memories, seen);
    }

    private Uni<Void> upsert(SqlConnection conn, String cluster, List<String> uuids, List<String> nodes,
                             List<String> models, List<Long> memories, List<OffsetDateTime> seen) {
        if (uuids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return conn.preparedQuery("""
                        INSERT INTO ledger.gpu_device (cluster, uuid, node, model, memory_mib, first_seen, last_seen)
                        SELECT DISTINCT ON (u.uuid) $1, u.uuid, u.node, u.model, u.mem, u.seen, u.seen
                        FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::timestamptz[]) AS u(uuid, node, model, mem, seen)
                        ORDER BY u.uuid, u.seen DESC
                        ON CONFLICT (cluster, uuid) DO UPDATE SET node = excluded.node,
                            model = coalesce(excluded.model, gpu_device.model),
                            memory_mib = coalesce(excluded.memory_mib, gpu_device.memory_mib),
                            first_seen = least(gpu_device.first_seen, excluded.first_seen),
                            last_seen = greatest(gpu_device.last_seen, excluded.last_seen)""")
                .execute(Tuple.of(cluster, uuids.toArray(String[]::new), nodes.toArray(String[]::new),
                        models.toArray(String[]::new), memories.toArray(Long[]::new), seen.toArray(OffsetDateTime[]::new)))
                .replaceWithVoid();
    }

    public Uni<Boolean> known(String uuid) {
        return pool.preparedQuery(KeptPrepared.POINT_LOOKUP.sql("SELECT 1 FROM ledger.gpu_device WHERE uuid = $1 LIMIT 1"))
                .execute(Tuple.of(uuid)).map(rows -> rows.size() > 0);
    }
}
