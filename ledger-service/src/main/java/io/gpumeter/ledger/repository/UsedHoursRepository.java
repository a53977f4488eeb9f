package io.gpumeter.ledger.repository;

import io.gpumeter.ledger.domain.GroupDimension;
import io.gpumeter.ledger.domain.TimeWindow;
import io.gpumeter.ledger.domain.UsedHours;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * Used card-equivalent hours per group. A unit with its own series uses it: a MIG instance's activity times the
 * unit's fraction, a HAMi container's core utilization (relative to the whole card) capped at the fraction. Every
 * other unit's share comes from its card's activity per minute, apportioned among the units that share it by
 * allocated fraction and never above the unit's own fraction: device values are never copied to every pod.
 */
@ApplicationScoped
public class UsedHoursRepository {

    private final Pool pool;

    public UsedHoursRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<Map<String, UsedHours>> usedHours(TimeWindow window, List<GroupDimension> dimensions, Instant now,
                                                 String tenant) {
        String select = dimensions.stream().map(d -> "coalesce(" + d.column("m") + ", 'unknown') AS d" + d.ordinal())
                .collect(Collectors.joining(", "));
        String group = dimensions.stream().map(d -> "d" + d.ordinal()).collect(Collectors.joining(", "));
        String sql = """
                WITH seg AS (
                    SELECT s.*, greatest(s.seg_start, $1) AS a, least(coalesce(s.seg_end, $3), $2) AS b
                    FROM ledger.allocation_segment s
                    WHERE s.gpu_uuid IS NOT NULL AND s.seg_start < $2 AND coalesce(s.seg_end, $3) > $1 AND s.seg_start < $3),
                series AS (
                    SELECT cluster, gpu_uuid, scope,
                           CASE WHEN scope = 'CONTAINER' THEN split_part(scope_key, '/', 1) || '/' || split_part(scope_key, '/', 2)
                                ELSE scope_key END AS owner,
                           minute,
                           CASE WHEN scope = 'CONTAINER' THEN sum(sum / samples) FILTER (WHERE field = 'VGPU_CORE_UTIL')
                                ELSE coalesce(max(sum / samples) FILTER (WHERE field = 'SM_ACTIVE'),
                                              max(sum / samples) FILTER (WHERE field = 'GR_ENGINE_ACTIVE'),
                                              max(sum / samples) FILTER (WHERE field = 'GPU_UTIL')) END AS act,
                           CASE WHEN scope = 'CONTAINER' THEN 'VGPU_CORE_UTIL'
                                WHEN bool_or(field = 'SM_ACTIVE') THEN 'SM_ACTIVE'
                                WHEN bool_or(field = 'GR_ENGINE_ACTIVE') THEN 'GR_ENGINE_ACTIVE' ELSE 'GPU_UTIL' END AS metric
                    FROM ledger.usage_minute
                    WHERE field IN ('SM_ACTIVE', 'GR_ENGINE_ACTIVE', 'GPU_UTIL', 'VGPU_CORE_UTIL')
                      AND scope IN ('DEVICE', 'MIG_INSTANCE', 'CONTAINER')
                      AND minute >= date_trunc('minute', $1::timestamptz) AND minute < $2
                      AND gpu_uuid IN (SELECT DISTINCT gpu_uuid FROM seg)
                    GROUP BY cluster, gpu_uuid, scope, scope_key, minute),
                own AS (
                    -- A MIG instance's series is relative to the unit (x fraction); a HAMi container's is relative to
                    -- the whole card (capped at the fraction).
                    SELECT seg.*, x.minute, x.act, x.metric, true AS exclusive,
                           CASE WHEN x.scope = 'MIG_INSTANCE' THEN x.act::numeric * seg.fraction
                                ELSE least(seg.fraction, x.act::numeric) END AS share
                    FROM seg JOIN series x ON x.cluster = seg.cluster AND x.gpu_uuid = seg.gpu_uuid
                         AND ((seg.unit_kind = 'MIG' AND x.scope = 'MIG_INSTANCE' AND x.owner = seg.mig_instance)
                           OR (seg.unit_kind = 'VGPU' AND x.scope = 'CONTAINER' AND x.owner = seg.namespace || '/' || seg.pod))
                         AND x.minute < seg.b AND x.minute + interval '1 minute' > seg.a
                    WHERE x.act IS NOT NULL),
                shared AS (
                    -- Everyone else shares the card's own activity by allocated fraction, never above their own.
                    SELECT seg.*, d.minute, d.act, d.metric
                    FROM seg JOIN series d ON d.cluster = seg.cluster AND d.gpu_uuid = seg.gpu_uuid AND d.scope = 'DEVICE'
                         AND d.minute < seg.b AND d.minute + interval '1 minute' > seg.a
                    WHERE NOT EXISTS (SELECT 1 FROM own o WHERE o.cluster = seg.cluster AND o.pod_uid = seg.pod_uid
                                      AND o.unit_index = seg.unit_index AND o.seg_start = seg.seg_start)),
                card_load AS (
                    SELECT cluster, gpu_uuid, minute, sum(fraction) AS total FROM shared GROUP BY cluster, gpu_uuid, minute),
                measured AS (
                    SELECT o.*, extract(epoch FROM least(o.b, o.minute + interval '1 minute') - greatest(o.a, o.minute)) AS o_sec
                    FROM (SELECT cluster, tenant, team, project, namespace, node, gpu_model, owner_kind, owner_name, fraction,
                                 a, b, minute, metric, exclusive, share FROM own
                          UNION ALL
                          SELECT m.cluster, m.tenant, m.team, m.project, m.namespace, m.node, m.gpu_model, m.owner_kind,
                                 m.owner_name, m.fraction, m.a, m.b, m.minute, m.metric, l.total = m.fraction,
                                 least(m.fraction, m.act::numeric * m.fraction / l.total)
                          FROM shared m JOIN card_load l ON l.cluster = m.cluster AND l.gpu_uuid = m.gpu_uuid
                                                        AND l.minute = m.minute) o)
                SELECT\s""" + select + """
                     , sum(m.o_sec * m.share) / 3600 AS used,
                       sum(m.o_sec * m.fraction) / 3600 AS covered,
                       string_agg(DISTINCT m.metric, ',' ORDER BY m.metric) AS metrics,
                       bool_and(m.exclusive) AS exclusive
                FROM measured m
                WHERE $4::text IS NULL OR m.tenant = $4
                GROUP BY """ + " " + group;
        Instant cap = now.isBefore(window.end()) ? now : window.end();
        return pool.preparedQuery(sql)
                .execute(Tuple.of(toOffset(window.start()), toOffset(window.end()), toOffset(cap), tenant))
                .map(rows -> {
                    Map<String, UsedHours> out = new HashMap<>();
                    for (Row row : rows) {
                        List<String> values = new ArrayList<>();
                        dimensions.forEach(d -> values.add(row.getString("d" + d.ordinal())));
                        out.put(String.join("/", values), new UsedHours(nonNull(row.getBigDecimal("used")),
                                nonNull(row.getBigDecimal("covered")), row.getString("metrics"),
                                Boolean.TRUE.equals(row.getBoolean("exclusive"))));
                    }
                    return out;
                });
    }

    private static BigDecimal nonNull(BigDecimal value) {
        return value == null ? BigDecimal.ZERO : value.stripTrailingZeros();
    }
}
