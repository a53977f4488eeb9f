-- Used card-equivalent seconds per group and piece of the window [$1, $2) (the pieces k, $5 to $7, are days or parts
-- of days; the report adds them up and divides by 3600 once); a held unit counts up to $3, the earlier of the window's
-- end and now; $4 is the tenant asked for, null for all. {dimensions} and {groups} are the group columns over `m`;
-- {tenant_filter} is "AND tenant = $4" when a tenant is asked for, else "AND $4::text IS NULL".
-- In the same pass, the energy of the group's units: each span of a card's energy (its mean power times the span's
-- seconds) is split among the units on the card by allocated fraction times the seconds each held it, capped at the
-- whole card when they held more; the rest is the card's idle energy, no unit's (idle-energy.sql).
-- Whether a unit has a series of its own is decided per piece, so that a piece's answer is the same read alone or
-- beside others (a day book stores it).
WITH card AS (
    -- The first step: the cards the asked tenant held in the window, read by the window and the tenant on indexed
    -- columns, as the arrays of clusters and cards the later reads filter by. Their other occupants join below
    -- because a card's activity is apportioned among everyone on it, but their rows never reach the answer. The
    -- segments are grouped by card first: array_agg(DISTINCT) over the segments themselves sorts every one of them
    -- (1.2-1.6 s over a 1,000,000-pod month, against 0.24-0.33 s hashed by card).
    SELECT array_agg(DISTINCT cluster) AS clusters, array_agg(DISTINCT gpu_uuid) AS gpu_uuids
    FROM (SELECT cluster, gpu_uuid FROM ledger.allocation_segment
          WHERE gpu_uuid IS NOT NULL AND seg_start < $2 AND seg_start < $3
            AND coalesce(seg_end, 'infinity'::timestamptz) > $1 AND coalesce(seg_end, $3) > $1
            {tenant_filter}
          GROUP BY cluster, gpu_uuid) held),
seg AS (
    -- Every unit on those cards in the window, clipped to it as [a, b).
    SELECT s.*, ledger.clip(s.seg_start, $1, $2) AS a, ledger.clip(coalesce(s.seg_end, $3), $1, $2) AS b
    FROM card c
    JOIN ledger.allocation_segment s ON s.cluster = ANY (c.clusters) AND s.gpu_uuid = ANY (c.gpu_uuids)
    WHERE s.seg_start < $2 AND coalesce(s.seg_end, $3) > $1 AND s.seg_start < $3),
activity AS (
    -- The activity of those cards and of their MIG instances per minute of the window (SM_ACTIVE, else
    -- GR_ENGINE_ACTIVE, else GPU_UTIL, with the card's GPU_UTIL beside it).
    SELECT a.* FROM card c CROSS JOIN LATERAL ledger.card_activity(c.clusters, c.gpu_uuids, $1, $2) a),
energy AS (
    -- The energy of those cards per minute (per hour before the minute retention): the card's mean power over the span
    -- from its energy counter where the ledger derived it, else from its power draw, and which of the two.
    SELECT e.* FROM card c CROSS JOIN LATERAL ledger.card_energy(c.clusters, c.gpu_uuids, $1, $2) e
    WHERE e.watts IS NOT NULL),
energy_held AS (
    -- Every unit beside each span of its card's energy, with the card-equivalents all units held of the span (inside
    -- the window): the span's energy is split among them by fraction times seconds held, over that when above one.
    SELECT seg.cluster, seg.tenant, seg.team, seg.project, seg.namespace, seg.pod, seg.node, seg.gpu_model,
           seg.owner_kind, seg.owner_name, seg.fraction, seg.a, seg.b, e.minute, e.span, e.watts, e.source AS e_source,
           sum(seg.fraction * ledger.clipped_seconds(e.minute, e.minute + e.span, seg.a, seg.b))
               OVER (PARTITION BY e.cluster, e.gpu_uuid, e.minute)
             / nullif(ledger.clipped_seconds(e.minute, e.minute + e.span, $1, $2), 0) AS held
    FROM seg JOIN energy e ON e.cluster = seg.cluster AND e.gpu_uuid = seg.gpu_uuid
         AND e.minute < seg.b AND e.minute + e.span > seg.a),
pod_reading AS (
    -- What pods measured on those cards per minute (per hour before the minute retention): HAMi containers' core
    -- utilization, and the SM time of the processes the pusher named a pod for (a bare pid names no pod).
    SELECT u.cluster, u.gpu_uuid, u.scope, u.scope_key, u.at AS minute, u.span, u.level AS mean
    FROM card c
    JOIN ledger.usage_rollup u ON u.cluster = ANY (c.clusters) AND u.gpu_uuid = ANY (c.gpu_uuids)
    WHERE u.at >= date_trunc('hour', $1::timestamptz) AND u.at + u.span > $1 AND u.at < $2
      AND ((u.scope = 'CONTAINER' AND u.field = 'VGPU_CORE_UTIL')
           OR (u.scope = 'PROCESS' AND u.field = 'GPU_UTIL' AND u.scope_key LIKE '%/%/%/%'))),
pod_series AS (
    -- A pod's share of the whole card per minute: its HAMi containers' core utilization, else the summed SM time
    -- of its processes. DISTINCT ON keeps the first by the source's name, and 'HAMI_CONTAINER' sorts before
    -- 'PROCESS'.
    SELECT DISTINCT ON (cluster, gpu_uuid, owner, minute) cluster, gpu_uuid, owner, minute, span, act, via, metric
    FROM (SELECT cluster, gpu_uuid, minute, span, sum(mean) AS act,
                 split_part(scope_key, '/', 1) || '/' || split_part(scope_key, '/', 2) AS owner,
                 CASE WHEN scope = 'CONTAINER' THEN 'HAMI_CONTAINER' ELSE 'PROCESS' END AS via,
                 CASE WHEN scope = 'CONTAINER' THEN 'VGPU_CORE_UTIL' ELSE 'GPU_UTIL' END AS metric
          FROM pod_reading
          GROUP BY cluster, gpu_uuid, minute, span, owner, scope) p
    ORDER BY cluster, gpu_uuid, owner, minute, via),
own_raw AS (
    -- Units with a series of their own: a MIG unit's instance, else the pod's series on the card.
    SELECT seg.*, x.minute, x.span, x.act, x.metric, 'MIG_INSTANCE' AS via, width_bucket(x.minute, $6::timestamptz[]) AS bk
    FROM seg JOIN activity x ON x.cluster = seg.cluster AND x.gpu_uuid = seg.gpu_uuid
         AND seg.unit_kind = 'MIG' AND x.scope = 'MIG_INSTANCE' AND x.scope_key = seg.mig_instance
         AND x.minute < seg.b AND x.minute + x.span > seg.a
    WHERE x.act IS NOT NULL
    UNION ALL
    SELECT seg.*, p.minute, p.span, p.act, p.metric, p.via, width_bucket(p.minute, $6::timestamptz[]) AS bk
    FROM seg JOIN pod_series p ON p.cluster = seg.cluster AND p.gpu_uuid = seg.gpu_uuid
         AND seg.unit_kind <> 'MIG' AND p.owner = seg.namespace || '/' || seg.pod
         AND p.minute < seg.b AND p.minute + p.span > seg.a),
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
own_unit AS MATERIALIZED (
    -- The units with a series of their own, per piece (materialized, so that the planner hashes it once for the
    -- per-minute join below instead of searching own_raw row by row).
    SELECT DISTINCT cluster, pod_uid, unit_index, seg_start, bk FROM own_raw),
placed AS MATERIALIZED (
    -- Every unit on its card each minute (or hour, before the minute retention) beside the card's activity, and, as rows of their own (unit_row false),
    -- what the pods measured on the card that minute: the card-minute's sums below are then window sums over one
    -- set. Joins of CTEs, whose sizes the planner cannot foresee, would be repeated row by row instead.
    SELECT TRUE AS unit_row, n.cluster, n.gpu_uuid, d.minute, d.span, n.tenant, n.team, n.project, n.namespace, n.pod, n.node,
           n.gpu_model, n.owner_kind, n.owner_name, n.pod_uid, n.unit_index, n.fraction, n.a, n.b,
           o.pod_uid IS NULL AS unmeasured, d.act, d.metric, d.util, NULL::double precision AS pod_act,
           NULL::text AS pod_via
    FROM seg n JOIN activity d ON d.cluster = n.cluster AND d.gpu_uuid = n.gpu_uuid AND d.scope = 'DEVICE'
         AND d.minute < n.b AND d.minute + d.span > n.a
    LEFT JOIN own_unit o ON o.cluster = n.cluster AND o.pod_uid = n.pod_uid AND o.unit_index = n.unit_index
         AND o.seg_start = n.seg_start AND o.bk = width_bucket(d.minute, $6::timestamptz[])
    UNION ALL
    SELECT FALSE, cluster, gpu_uuid, minute, span, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
           NULL, NULL, NULL, NULL, NULL, act, via
    FROM pod_series),
counted AS (
    -- A unit with two segments in one minute counts once on its card.
    SELECT p.*, p.unit_row AND row_number() OVER (PARTITION BY p.cluster, p.gpu_uuid, p.minute, p.pod_uid, p.unit_index,
                                                               p.fraction, p.unmeasured) = 1 AS first_of_unit
    FROM placed p),
card_minute AS (
    -- Per card and minute: the units on it, measured or not, the units left to share its activity, and what the
    -- pods measured on it took of it (taken_act, null when none did).
    SELECT c.*, count(*) FILTER (WHERE c.first_of_unit) OVER w AS units,
           sum(c.fraction) FILTER (WHERE c.first_of_unit) OVER w AS total,
           sum(c.fraction) FILTER (WHERE c.first_of_unit AND c.unmeasured) OVER w AS unmeasured_total,
           sum(c.pod_act) OVER w AS taken_act,
           bool_or(c.pod_via = 'PROCESS') OVER w AS by_process
    FROM counted c
    WINDOW w AS (PARTITION BY c.cluster, c.gpu_uuid, c.minute)),
apportioned AS (
    -- Units without a series of their own: with pods measured on the card, the rest of its activity (the share of
    -- its busy time their SM time leaves, on the card's own metric) is split among the unmeasured units; without,
    -- the whole activity is split among all units by fraction.
    SELECT m.*,
           CASE WHEN m.taken_act IS NULL THEN 'DEVICE_' || CASE WHEN m.units = 1 THEN 'EXCLUSIVE' ELSE 'BY_ALLOCATION' END
                WHEN m.by_process THEN 'DEVICE_BY_PROCESS' ELSE 'DEVICE_BY_CONTAINER' END AS via,
           CASE WHEN m.taken_act IS NULL THEN m.act::numeric * m.fraction / nullif(m.total, 0)
                WHEN m.util > 0 THEN (m.act * greatest(0, 1 - m.taken_act / m.util))::numeric * m.fraction
                                     / nullif(m.unmeasured_total, 0)
                ELSE greatest(0, m.act - m.taken_act)::numeric * m.fraction / nullif(m.unmeasured_total, 0) END AS portion
    FROM card_minute m
    WHERE m.unit_row AND m.unmeasured AND m.act IS NOT NULL),
measured AS (
    -- Each unit's share per minute (or hour), with the seconds of that span inside its clipped segment. Per time
    -- bucket, {bucket_join} joins the buckets k ($5 to $7) that both the span and the segment overlap, {bucket} is
    -- the bucket's label and {seg_start}, {seg_end} the segment clipped to it: an hour across a seam is split.
    SELECT o.*, {bucket} AS bucket, ledger.clipped_seconds(o.minute, o.minute + o.span, {seg_start}, {seg_end}) AS o_sec
    FROM (SELECT cluster, tenant, team, project, namespace, pod, node, gpu_model, owner_kind, owner_name, fraction,
                 a, b, minute, span, metric, via, share, FALSE AS energy, NULL::float8 AS watts, NULL::float8 AS held,
                 NULL::text AS e_source FROM own
          UNION ALL
          SELECT cluster, tenant, team, project, namespace, pod, node, gpu_model, owner_kind, owner_name, fraction,
                 a, b, minute, span, metric, via, least(fraction, coalesce(portion, 0)), FALSE, NULL, NULL, NULL
          FROM apportioned
          UNION ALL
          SELECT cluster, tenant, team, project, namespace, pod, node, gpu_model, owner_kind, owner_name, fraction,
                 a, b, minute, span, NULL, NULL, 0, TRUE, watts, held, e_source FROM energy_held) o
    {bucket_join})
SELECT m.bucket AS piece, {dimensions},
       sum(m.o_sec * m.share) FILTER (WHERE NOT m.energy) AS used,
       sum(m.o_sec * m.fraction) FILTER (WHERE NOT m.energy) AS covered,
       string_agg(DISTINCT m.metric, ',' ORDER BY m.metric) AS metrics,
       string_agg(DISTINCT m.via, ',' ORDER BY m.via) AS sources,
       sum(m.o_sec::float8 * m.fraction::float8 * m.watts / greatest(1, m.held)) FILTER (WHERE m.energy) AS energy_j,
       sum(m.o_sec * m.fraction) FILTER (WHERE m.energy) AS energy_covered,
       string_agg(DISTINCT m.e_source, ',' ORDER BY m.e_source) AS energy_sources
FROM measured m
WHERE $4::text IS NULL OR m.tenant = $4
GROUP BY m.bucket, {groups}
