-- The energy of cards that no unit held, per group of the cards' own dimensions over the window [$1, $2); a held unit
-- counts up to $3, the earlier of the window's end and now. {dimensions} and {groups} are the group columns over `m`
-- (cluster, node, gpu_model, bucket). A card is one an allocation in the window names or one of the inventory
-- (gpu_device: HAMi registrations, DRA slices), as the idle split counts cards; its node and model are those of its
-- latest segment in the window, so that its rows meet the allocated hours' rows, else the inventory's. Each span of a
-- card's energy (ledger.card_energy) is idle in the part no unit held: 1 − Σ fraction × seconds held / the span's
-- seconds in the window, never below 0 — the complement of what used-hours.sql gives the units. Per time bucket,
-- {bucket_join} joins the buckets k ($5 to $7) a span overlaps and {w_start}, {w_end} are the bucket's bounds, else
-- the window's. $4 is always null: the place of the tenant in the other hours queries, whose bucket parameters this
-- shares; the energy no unit held is no tenant's.
WITH seg AS (
    SELECT s.cluster, s.gpu_uuid, s.node, s.gpu_model, s.fraction, s.seg_start,
           ledger.clip(s.seg_start, $1, $2) AS a, ledger.clip(coalesce(s.seg_end, $3), $1, $2) AS b
    FROM ledger.allocation_segment s
    WHERE s.gpu_uuid IS NOT NULL AND s.seg_start < $2 AND s.seg_start < $3
      AND coalesce(s.seg_end, 'infinity'::timestamptz) > $1 AND coalesce(s.seg_end, $3) > $1 AND $4::text IS NULL),
card AS (
    SELECT c.cluster, c.gpu_uuid, (array_agg(c.node ORDER BY c.pri, c.since DESC))[1] AS node,
           (array_agg(c.gpu_model ORDER BY c.pri, c.since DESC) FILTER (WHERE c.gpu_model IS NOT NULL))[1] AS gpu_model
    FROM (SELECT cluster, gpu_uuid, node, gpu_model, seg_start AS since, 0 AS pri FROM seg
          UNION ALL
          SELECT cluster, uuid, node, model, first_seen, 1 FROM ledger.gpu_device) c
    GROUP BY c.cluster, c.gpu_uuid),
cards AS (
    SELECT array_agg(DISTINCT cluster) AS clusters, array_agg(DISTINCT gpu_uuid) AS gpu_uuids FROM card),
energy AS (
    SELECT e.* FROM cards c CROSS JOIN LATERAL ledger.card_energy(c.clusters, c.gpu_uuids, $1, $2) e
    WHERE e.watts IS NOT NULL),
held AS (
    SELECT e.cluster, e.gpu_uuid, e.minute, e.span, e.watts,
           coalesce(sum(s.fraction * ledger.clipped_seconds(e.minute, e.minute + e.span, s.a, s.b)), 0)::float8
             / nullif(ledger.clipped_seconds(e.minute, e.minute + e.span, $1, $2), 0)::float8 AS held
    FROM energy e
    LEFT JOIN seg s ON s.cluster = e.cluster AND s.gpu_uuid = e.gpu_uuid AND s.a < e.minute + e.span AND s.b > e.minute
    GROUP BY e.cluster, e.gpu_uuid, e.minute, e.span, e.watts),
idle AS (
    SELECT c.cluster, c.node, c.gpu_model, h.minute, h.span, h.watts, greatest(0, 1 - coalesce(h.held, 0)) AS idle
    FROM held h JOIN card c ON c.cluster = h.cluster AND c.gpu_uuid = h.gpu_uuid),
measured AS (
    SELECT i.*, {bucket} AS bucket, ledger.clipped_seconds(i.minute, i.minute + i.span, {w_start}, {w_end}) AS sec
    FROM idle i {bucket_join})
SELECT {dimensions}, sum(m.sec::float8 * m.watts * m.idle) AS idle_j
FROM measured m
GROUP BY {groups}
