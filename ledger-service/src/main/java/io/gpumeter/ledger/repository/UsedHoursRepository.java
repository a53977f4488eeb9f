package io.gpumeter.ledger.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.domain.GroupDimension;
import io.gpumeter.ledger.domain.UsageSource;
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
 * Used card-equivalent hours per group, in the order of trust of the sources: a MIG instance's own series (relative
 * to the unit: activity times the unit's fraction); else the pod's series relative to the whole card, capped at the
 * unit's fraction — its HAMi containers' core utilization, else the SM time of the processes nvidia-smi saw for it;
 * else its card's activity per minute. A card's activity is never copied to every pod on it: what the pods measured
 * on the card took of it is theirs, the rest is apportioned among the other units by allocated fraction, each capped
 * at its own fraction. Every row says which source it came from ({@link UsageSource}).
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
                WITH cards AS (
                    -- The first step keeps the asked tenant's cards only; their other occupants join below because a
                    -- card's activity is apportioned among everyone on it, but their rows never reach the answer.
                    SELECT DISTINCT s.cluster, s.gpu_uuid
                    FROM ledger.allocation_segment s
                    WHERE s.gpu_uuid IS NOT NULL AND s.seg_start < $2 AND coalesce(s.seg_end, $3) > $1 AND s.seg_start < $3
                      AND ($4::text IS NULL OR s.tenant = $4)),
                seg AS (
                    SELECT s.*, greatest(s.seg_start, $1) AS a, least(coalesce(s.seg_end, $3), $2) AS b
                    FROM ledger.allocation_segment s JOIN cards c ON c.cluster = s.cluster AND c.gpu_uuid = s.gpu_uuid
                    WHERE s.seg_start < $2 AND coalesce(s.seg_end, $3) > $1 AND s.seg_start < $3),
                reading AS (
                    SELECT cluster, gpu_uuid, scope, scope_key, field, minute, sum / samples AS mean
                    FROM ledger.usage_minute
                    WHERE field IN ('SM_ACTIVE', 'GR_ENGINE_ACTIVE', 'GPU_UTIL', 'VGPU_CORE_UTIL')
                      AND scope IN ('DEVICE', 'MIG_INSTANCE', 'CONTAINER', 'PROCESS')
                      AND minute >= date_trunc('minute', $1::timestamptz) AND minute < $2
                      AND gpu_uuid IN (SELECT DISTINCT gpu_uuid FROM seg)),
                activity AS (
                    -- A card's or a MIG instance's activity: SM_ACTIVE, else GR_ENGINE_ACTIVE, else GPU_UTIL; the
                    -- card's GPU_UTIL is kept beside it, the measure per-process SM time is a share of.
                    SELECT cluster, gpu_uuid, scope, scope_key, minute,
                           coalesce(max(mean) FILTER (WHERE field = 'SM_ACTIVE'),
                                    max(mean) FILTER (WHERE field = 'GR_ENGINE_ACTIVE'),
                                    max(mean) FILTER (WHERE field = 'GPU_UTIL')) AS act,
                           CASE WHEN bool_or(field = 'SM_ACTIVE') THEN 'SM_ACTIVE'
                                WHEN bool_or(field = 'GR_ENGINE_ACTIVE') THEN 'GR_ENGINE_ACTIVE' ELSE 'GPU_UTIL' END AS metric,
                           max(mean) FILTER (WHERE field = 'GPU_UTIL') AS util
                    FROM reading
                    WHERE scope IN ('DEVICE', 'MIG_INSTANCE') AND field <> 'VGPU_CORE_UTIL'
                    GROUP BY cluster, gpu_uuid, scope, scope_key, minute),
                pod_series AS (
                    -- A pod's share of the whole card per minute: its HAMi containers' core utilization, else the
                    -- summed SM time of the processes the pusher named it for (a bare pid names no pod). DISTINCT ON
                    -- keeps the first by the source's name, and 'HAMI_CONTAINER' sorts before 'PROCESS'.
                    SELECT DISTINCT ON (cluster, gpu_uuid, owner, minute) cluster, gpu_uuid, owner, minute, act, via, metric
                    FROM (SELECT cluster, gpu_uuid, minute, sum(mean) AS act,
                                 split_part(scope_key, '/', 1) || '/' || split_part(scope_key, '/', 2) AS owner,
                                 CASE WHEN scope = 'CONTAINER' THEN 'HAMI_CONTAINER' ELSE 'PROCESS' END AS via,
                                 CASE WHEN scope = 'CONTAINER' THEN 'VGPU_CORE_UTIL' ELSE 'GPU_UTIL' END AS metric
                          FROM reading
                          WHERE (scope = 'CONTAINER' AND field = 'VGPU_CORE_UTIL')
                             OR (scope = 'PROCESS' AND field = 'GPU_UTIL' AND scope_key LIKE '%/%/%/%')
                          GROUP BY cluster, gpu_uuid, minute, owner, scope) p
                    ORDER BY cluster, gpu_uuid, owner, minute, via),
                own_raw AS (
                    SELECT seg.*, x.minute, x.act, x.metric, 'MIG_INSTANCE' AS via
                    FROM seg JOIN activity x ON x.cluster = seg.cluster AND x.gpu_uuid = seg.gpu_uuid
                         AND seg.unit_kind = 'MIG' AND x.scope = 'MIG_INSTANCE' AND x.scope_key = seg.mig_instance
                         AND x.minute < seg.b AND x.minute + interval '1 minute' > seg.a
                    WHERE x.act IS NOT NULL
                    UNION ALL
                    SELECT seg.*, p.minute, p.act, p.metric, p.via
                    FROM seg JOIN pod_series p ON p.cluster = seg.cluster AND p.gpu_uuid = seg.gpu_uuid
                         AND seg.unit_kind <> 'MIG' AND p.owner = seg.namespace || '/' || seg.pod
                         AND p.minute < seg.b AND p.minute + interval '1 minute' > seg.a),
                pod_load AS (
                    -- A pod holding several units of one card spreads its whole-card series over them by fraction.
                    SELECT cluster, gpu_uuid, pod_uid, minute, sum(fraction) AS held
                    FROM (SELECT DISTINCT cluster, gpu_uuid, pod_uid, unit_index, fraction, minute FROM own_raw
                          WHERE via <> 'MIG_INSTANCE') u
                    GROUP BY cluster, gpu_uuid, pod_uid, minute),
                own AS (
                    SELECT o.*, CASE WHEN o.via = 'MIG_INSTANCE' THEN o.act::numeric * o.fraction
                                     ELSE least(o.fraction, coalesce(o.act::numeric * o.fraction / nullif(l.held, 0), 0)) END AS share
                    FROM own_raw o LEFT JOIN pod_load l ON l.cluster = o.cluster AND l.gpu_uuid = o.gpu_uuid
                                                       AND l.pod_uid = o.pod_uid AND l.minute = o.minute),
                taken AS (
                    -- What the pods measured on a card took of it in a minute, whether or not they hold it there.
                    SELECT cluster, gpu_uuid, minute, sum(act) AS act, bool_or(via = 'PROCESS') AS by_process
                    FROM pod_series GROUP BY cluster, gpu_uuid, minute),
                shared AS (
                    SELECT seg.*, d.minute, d.act, d.metric, d.util
                    FROM seg JOIN activity d ON d.cluster = seg.cluster AND d.gpu_uuid = seg.gpu_uuid AND d.scope = 'DEVICE'
                         AND d.minute < seg.b AND d.minute + interval '1 minute' > seg.a
                    WHERE d.act IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM own_raw o WHERE o.cluster = seg.cluster AND o.pod_uid = seg.pod_uid
                                      AND o.unit_index = seg.unit_index AND o.seg_start = seg.seg_start)),
                occupancy AS (
                    -- Every unit on the card that minute, measured or not, and the units left to share its activity.
                    SELECT cluster, gpu_uuid, minute, count(*) AS units, sum(fraction) AS total,
                           sum(fraction) FILTER (WHERE unmeasured) AS unmeasured
                    FROM (SELECT DISTINCT d.cluster, d.gpu_uuid, d.minute, seg.pod_uid, seg.unit_index, seg.fraction,
                                 NOT EXISTS (SELECT 1 FROM own_raw o WHERE o.cluster = seg.cluster AND o.pod_uid = seg.pod_uid
                                             AND o.unit_index = seg.unit_index AND o.seg_start = seg.seg_start) AS unmeasured
                          FROM seg JOIN activity d ON d.cluster = seg.cluster AND d.gpu_uuid = seg.gpu_uuid AND d.scope = 'DEVICE'
                               AND d.minute < seg.b AND d.minute + interval '1 minute' > seg.a) u
                    GROUP BY cluster, gpu_uuid, minute),
                apportioned AS (
                    -- With pods measured on the card, the rest of its activity (the share of its busy time their
                    -- SM time leaves, on the card's own metric) is split among the unmeasured units; without, the
                    -- whole activity is split among all units by fraction.
                    SELECT m.*, c.units,
                           CASE WHEN t.act IS NULL THEN 'DEVICE_' || CASE WHEN c.units = 1 THEN 'EXCLUSIVE' ELSE 'BY_ALLOCATION' END
                                WHEN t.by_process THEN 'DEVICE_BY_PROCESS' ELSE 'DEVICE_BY_CONTAINER' END AS via,
                           CASE WHEN t.act IS NULL THEN m.act::numeric * m.fraction / nullif(c.total, 0)
                                WHEN m.util > 0 THEN (m.act * greatest(0, 1 - t.act / m.util))::numeric * m.fraction / nullif(c.unmeasured, 0)
                                ELSE greatest(0, m.act - t.act)::numeric * m.fraction / nullif(c.unmeasured, 0) END AS portion
                    FROM shared m JOIN occupancy c ON c.cluster = m.cluster AND c.gpu_uuid = m.gpu_uuid AND c.minute = m.minute
                         LEFT JOIN taken t ON t.cluster = m.cluster AND t.gpu_uuid = m.gpu_uuid AND t.minute = m.minute),
                measured AS (
                    SELECT o.*, extract(epoch FROM least(o.b, o.minute + interval '1 minute') - greatest(o.a, o.minute)) AS o_sec
                    FROM (SELECT cluster, tenant, team, project, namespace, node, gpu_model, owner_kind, owner_name, fraction,
                                 a, b, minute, metric, via, share FROM own
                          UNION ALL
                          SELECT cluster, tenant, team, project, namespace, node, gpu_model, owner_kind, owner_name, fraction,
                                 a, b, minute, metric, via, least(fraction, coalesce(portion, 0)) FROM apportioned) o)
                SELECT\s""" + select + """
                     , sum(m.o_sec * m.share) / 3600 AS used,
                       sum(m.o_sec * m.fraction) / 3600 AS covered,
                       string_agg(DISTINCT m.metric, ',' ORDER BY m.metric) AS metrics,
                       string_agg(DISTINCT m.via, ',' ORDER BY m.via) AS sources
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
                                UsageSource.parseAll(row.getString("sources"))));
                    }
                    return out;
                });
    }

    private static BigDecimal nonNull(BigDecimal value) {
        return value == null ? BigDecimal.ZERO : value.stripTrailingZeros();
    }
}
