package io.gpumeter.ledger.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.violation.domain.ContainerMinute;
import io.gpumeter.ledger.violation.domain.DriftRule;
import io.gpumeter.ledger.violation.domain.ViolationRules;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * Reads what the violation rules judge: HAMi's per-container minutes, nvidia-smi's per-process minutes, the holdings
 * on named cards, and card memory minutes.
 */
@ApplicationScoped
public class ViolationRepository {

    private final Pool pool;

    public ViolationRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<ContainerMinute>> containerMinutes(TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT cluster, gpu_uuid, scope_key, minute,
                               max(sum / samples) FILTER (WHERE field = 'VGPU_CORE_UTIL') AS cores,
                               max(sum / samples) FILTER (WHERE field = 'VGPU_MEMORY_USED_MIB') AS memory
                        FROM ledger.usage_minute
                        WHERE scope = 'CONTAINER' AND field IN ('VGPU_CORE_UTIL', 'VGPU_MEMORY_USED_MIB')
                          AND minute >= $1 AND minute < $2
                        GROUP BY cluster, gpu_uuid, scope_key, minute""")
                .execute(Tuple.of(toOffset(window.start()), toOffset(window.end())))
                .map(rows -> {
                    List<ContainerMinute> out = new ArrayList<>();
                    for (Row r : rows) {
                        String[] key = r.getString("scope_key").split("/", 3);
                        out.add(new ContainerMinute(r.getString("cluster"), r.getString("gpu_uuid"), key[0],
                                key.length > 1 ? key[1] : "", key.length > 2 ? key[2] : "",
                                r.getOffsetDateTime("minute").toInstant(), r.getDouble("cores"), r.getDouble("memory")));
                    }
                    return out;
                });
    }

    /**
     * Per container of a pod, card and minute: the summed SM time and memory of the processes the pusher named that
     * container for (a bare pid names no pod and is never a bypass).
     */
    public Uni<List<ContainerMinute>> processMinutes(TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT cluster, gpu_uuid, split_part(scope_key, '/', 1) AS namespace, split_part(scope_key, '/', 2) AS pod,
                               split_part(scope_key, '/', 3) AS container, minute,
                               sum(sum / samples) FILTER (WHERE field = 'GPU_UTIL') AS sm,
                               sum(sum / samples) FILTER (WHERE field = 'FB_USED_MIB') AS memory
                        FROM ledger.usage_minute
                        WHERE scope = 'PROCESS' AND field IN ('GPU_UTIL', 'FB_USED_MIB') AND scope_key LIKE '%/%/%/%'
                          AND minute >= $1 AND minute < $2
                        GROUP BY cluster, gpu_uuid, namespace, pod, container, minute""")
                .execute(Tuple.of(toOffset(window.start()), toOffset(window.end())))
                .map(rows -> {
                    List<ContainerMinute> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new ContainerMinute(r.getString("cluster"), r.getString("gpu_uuid"), r.getString("namespace"),
                                r.getString("pod"), r.getString("container"), r.getOffsetDateTime("minute").toInstant(),
                                r.getDouble("sm"), r.getDouble("memory")));
                    }
                    return out;
                });
    }

    /** vGPU allocations on named cards that overlap the window (a minute before it, so an episode's start is seen). */
    public Uni<List<ViolationRules.Holding>> holdings(TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT cluster, gpu_uuid, namespace, pod, cores, memory_mib, seg_start, seg_end
                        FROM ledger.allocation_segment
                        WHERE gpu_uuid IS NOT NULL AND seg_start < $2 AND (seg_end IS NULL OR seg_end > $1)""")
                .execute(Tuple.of(toOffset(window.start()), toOffset(window.end())))
                .map(rows -> {
                    List<ViolationRules.Holding> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new ViolationRules.Holding(r.getString("cluster"), r.getString("gpu_uuid"),
                                r.getString("namespace"), r.getString("pod"), r.getInteger("cores"), r.getLong("memory_mib"),
                                instant(r.getOffsetDateTime("seg_start")), instant(r.getOffsetDateTime("seg_end"))));
                    }
                    return out;
                });
    }

    /** Per card and minute: HAMi's container memory sum beside the device's FB_USED. */
    public Uni<List<DriftRule.CardMinute>> cardMemoryMinutes(TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT d.cluster, d.gpu_uuid, d.minute, d.sum / d.samples AS fb, c.total
                        FROM ledger.usage_minute d
                        JOIN (SELECT cluster, gpu_uuid, minute, sum(sum / samples) AS total FROM ledger.usage_minute
                              WHERE scope = 'CONTAINER' AND field = 'VGPU_MEMORY_USED_MIB' AND minute >= $1 AND minute < $2
                              GROUP BY cluster, gpu_uuid, minute) c
                          ON c.cluster = d.cluster AND c.gpu_uuid = d.gpu_uuid AND c.minute = d.minute
                        WHERE d.scope = 'DEVICE' AND d.field = 'FB_USED_MIB' AND d.minute >= $1 AND d.minute < $2""")
                .execute(Tuple.of(toOffset(window.start()), toOffset(window.end())))
                .map(rows -> {
                    List<DriftRule.CardMinute> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new DriftRule.CardMinute(r.getString("cluster"), r.getString("gpu_uuid"),
                                r.getOffsetDateTime("minute").toInstant(), r.getDouble("total"), r.getDouble("fb")));
                    }
                    return out;
                });
    }

    private static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
