-- Each card's energy over [$1, $2) in two parts, per tenant and pod holding it and no one's: the split used-hours.sql and
-- idle-energy.sql make, per card instead of per group, for the idle split (GET /api/v1/idle). $2 is already the earlier
-- of the window's end and now; $3 a cluster, null for all. A card is one an allocation in the window names or one of the
-- inventory, as the idle split counts cards. Per span of a card's energy (ledger.card_energy), each unit on it takes
-- its fraction times the seconds it held the card, over the card-equivalents all units held of the span when above
-- one; the rest, 1 − that, never below 0, is the card's idle energy (tenant null).
WITH seg AS (
    SELECT s.cluster, s.gpu_uuid, s.tenant, s.namespace, s.pod, s.fraction,
           ledger.clip(s.seg_start, $1, $2) AS a, ledger.clip(coalesce(s.seg_end, $2), $1, $2) AS b
    FROM ledger.allocation_segment s
    WHERE s.gpu_uuid IS NOT NULL AND s.seg_start < $2 AND coalesce(s.seg_end, 'infinity'::timestamptz) > $1
      AND ($3::text IS NULL OR s.cluster = $3)),
cards AS (
    SELECT array_agg(DISTINCT cluster) AS clusters, array_agg(DISTINCT gpu_uuid) AS gpu_uuids
    FROM (SELECT cluster, gpu_uuid FROM seg
          UNION SELECT cluster, uuid FROM ledger.gpu_device WHERE $3::text IS NULL OR cluster = $3) c),
energy AS (
    SELECT e.*, ledger.clipped_seconds(e.minute, e.minute + e.span, $1, $2)::float8 AS sec
    FROM cards c CROSS JOIN LATERAL ledger.card_energy(c.clusters, c.gpu_uuids, $1, $2) e
    WHERE e.watts IS NOT NULL),
held AS (
    SELECT e.cluster, e.gpu_uuid, e.minute, e.watts, e.sec, s.tenant, s.namespace, s.pod,
           (s.fraction * ledger.clipped_seconds(e.minute, e.minute + e.span, s.a, s.b))::float8 AS fs
    FROM energy e
    LEFT JOIN seg s ON s.cluster = e.cluster AND s.gpu_uuid = e.gpu_uuid AND s.a < e.minute + e.span AND s.b > e.minute),
span AS (
    SELECT h.*, coalesce(sum(h.fs) OVER (PARTITION BY h.cluster, h.gpu_uuid, h.minute), 0)
                  / nullif(h.sec, 0) AS card_held
    FROM held h)
SELECT cluster, gpu_uuid, tenant, namespace, pod, sum(watts * fs / greatest(1, card_held)) AS joules
FROM span WHERE tenant IS NOT NULL
GROUP BY cluster, gpu_uuid, tenant, namespace, pod
UNION ALL
SELECT cluster, gpu_uuid, NULL, NULL, NULL, sum(watts * sec * greatest(0, 1 - coalesce(card_held, 0)))
FROM (SELECT DISTINCT ON (cluster, gpu_uuid, minute) cluster, gpu_uuid, minute, watts, sec, card_held FROM span) s
GROUP BY cluster, gpu_uuid
