package io.gpumeter.ledger.repository;

import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.ResourceSliceFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.ledger.dra.domain.DraCards;
import io.gpumeter.ledger.inventory.domain.NodeInventory;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    /**
     * Records the GPUs the newest version of each node registers, each first seen at the earliest of the delivered
     * versions of its node that registers it: a replay delivers a node's whole history at once, and its cards were
     * there from the version that first names them, not from the newest ({@code InventoryStart} counts a card from its
     * node's creation only when it came with the node's first sighting).
     */
    public Uni<Void> record(SqlConnection conn, String cluster, List<NodeFact> latestNodes, List<NodeFact> delivered) {
        Map<String, Instant> firstRegistered = new HashMap<>();
        for (NodeFact version : delivered) {
            if (version.type() == WatchEventType.DELETED) {
                continue;
            }
            for (RegisteredGpu gpu : version.gpus()) {
                firstRegistered.merge(version.name() + "\u0000" + gpu.uuid(), version.observedAt(),
                        (a, b) -> a.isBefore(b) ? a : b);
            }
        }
        List<String> uuids = new ArrayList<>();
        List<String> nodes = new ArrayList<>();
        List<String> models = new ArrayList<>();
        List<Long> memories = new ArrayList<>();
        List<OffsetDateTime> seen = new ArrayList<>();
        List<OffsetDateTime> first = new ArrayList<>();
        for (NodeFact node : latestNodes) {
            NodeInventory inventory = new NodeInventory(node.name(), node.labels(), node.gpus());
            for (RegisteredGpu gpu : node.gpus()) {
                if (gpu.uuid() == null || gpu.uuid().isBlank()) {
                    continue;
                }
                Instant earliest = firstRegistered.getOrDefault(node.name() + "\u0000" + gpu.uuid(), node.observedAt());
                uuids.add(gpu.uuid());
                nodes.add(node.name());
                models.add(inventory.modelOf(gpu.uuid()));
                memories.add(inventory.cardMemoryMib(gpu.uuid()));
                seen.add(toOffset(node.observedAt()));
                first.add(toOffset(earliest.isBefore(node.observedAt()) ? earliest : node.observedAt()));
            }
        }
        return upsert(conn, cluster, uuids, nodes, models, memories, seen, first);
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
        return upsert(conn, cluster, uuids, nodes, models, memories, seen, seen);
    }

    /**
     * Stores each card once: its node, model and memory from its newest sighting in the delivery, first seen at the
     * earliest ({@code first}, when it differs from the sighting) and last seen at the newest.
     */
    private Uni<Void> upsert(SqlConnection conn, String cluster, List<String> uuids, List<String> nodes,
                             List<String> models, List<Long> memories, List<OffsetDateTime> seen,
                             List<OffsetDateTime> first) {
        if (uuids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return conn.preparedQuery("""
                        INSERT INTO ledger.gpu_device (cluster, uuid, node, model, memory_mib, first_seen, last_seen)
                        SELECT DISTINCT ON (u.uuid) $1, u.uuid, u.node, u.model, u.mem,
                               min(u.first) OVER (PARTITION BY u.uuid), max(u.seen) OVER (PARTITION BY u.uuid)
                        FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::timestamptz[], $7::timestamptz[])
                             AS u(uuid, node, model, mem, seen, first)
                        ORDER BY u.uuid, u.seen DESC
                        ON CONFLICT (cluster, uuid) DO UPDATE SET node = excluded.node,
                            model = coalesce(excluded.model, gpu_device.model),
                            memory_mib = coalesce(excluded.memory_mib, gpu_device.memory_mib),
                            first_seen = least(gpu_device.first_seen, excluded.first_seen),
                            last_seen = greatest(gpu_device.last_seen, excluded.last_seen)""")
                .execute(Tuple.from(List.of(cluster, uuids.toArray(String[]::new), nodes.toArray(String[]::new),
                        models.toArray(String[]::new), memories.toArray(Long[]::new), seen.toArray(OffsetDateTime[]::new),
                        first.toArray(OffsetDateTime[]::new))))
                .replaceWithVoid();
    }

    public Uni<Boolean> known(String uuid) {
        return pool.preparedQuery(KeptPrepared.POINT_LOOKUP.sql("SELECT 1 FROM ledger.gpu_device WHERE uuid = $1 LIMIT 1"))
                .execute(Tuple.of(uuid)).map(rows -> rows.size() > 0);
    }
}
