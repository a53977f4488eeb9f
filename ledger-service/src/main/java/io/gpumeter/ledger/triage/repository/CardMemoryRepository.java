package io.gpumeter.ledger.triage.repository;

import io.gpumeter.ledger.triage.domain.MemoryMinute;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.repository.Columns.offset;

/** What an OOM's branch reads of its cards' memory: the minutes around it, and each card's size as registered. */
@ApplicationScoped
public class CardMemoryRepository {

    private final Pool pool;

    public CardMemoryRepository(Pool pool) {
        this.pool = pool;
    }

    /** The memory minutes of these cards in [from, to]: the card's, HAMi's per container, nvidia-smi's per process. */
    public Uni<List<MemoryMinute>> memoryMinutes(String cluster, Collection<String> cards, Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT gpu_uuid, scope, scope_key, field, minute, max FROM ledger.usage_minute
                        WHERE cluster = $1 AND gpu_uuid = ANY($2) AND minute >= $3 AND minute <= $4
                          AND (scope = 'DEVICE' AND field IN ('FB_USED_MIB', 'FB_FREE_MIB', 'FB_RESERVED_MIB')
                               OR scope = 'CONTAINER' AND field IN ('VGPU_MEMORY_USED_MIB', 'VGPU_MEMORY_LIMIT_MIB')
                               OR scope = 'PROCESS' AND field = 'FB_USED_MIB')
                        ORDER BY gpu_uuid, minute, scope, scope_key, field""")
                .execute(Tuple.of(cluster, cards.toArray(String[]::new), offset(from), offset(to)))
                .map(rows -> {
                    List<MemoryMinute> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new MemoryMinute(r.getString("gpu_uuid"), r.getString("scope"), r.getString("scope_key"),
                                r.getString("field"), r.getOffsetDateTime("minute").toInstant(), r.getDouble("max")));
                    }
                    return out;
                });
    }

    /** The memory each of these nodes' cards registered with, by UUID, from each node's newest version. */
    public Uni<Map<String, Long>> registeredMemory(String cluster, Collection<String> nodes) {
        return pool.preparedQuery("""
                        SELECT g->>'uuid' AS uuid, (g->>'memoryMib')::bigint AS mib FROM (
                            SELECT DISTINCT ON (name) payload FROM ledger.node_fact WHERE cluster = $1 AND name = ANY($2)
                            ORDER BY name, revision DESC NULLS LAST, observed_at DESC) n
                        CROSS JOIN LATERAL json_array_elements(n.payload::json->'gpus') g""")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, Long> out = new LinkedHashMap<>();
                    for (Row r : rows) {
                        if (r.getString("uuid") != null && r.getLong("mib") != null) {
                            out.put(r.getString("uuid"), r.getLong("mib"));
                        }
                    }
                    return out;
                });
    }
}
