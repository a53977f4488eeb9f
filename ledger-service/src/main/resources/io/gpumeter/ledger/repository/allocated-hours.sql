-- Allocated card-equivalent hours per group over the window [$1, $2), each segment clipped exactly to the window and
-- a held unit counted up to $3, the earlier of the window's end and now; summed with exact numerics. $4 is the
-- tenant asked for, null for all. {dimensions} and {groups} are the group columns over `s`; {tenant_filter} is
-- "AND tenant = $4" when a tenant is asked for, else "AND $4::text IS NULL". Per time bucket, {bucket_join} joins
-- the buckets k(bucket, b_start, b_end) ($5 to $7, already clipped to the window) that a segment overlaps and
-- {w_start}, {w_end} are the bucket's bounds, so a segment across a seam counts in each bucket exactly its part;
-- otherwise {bucket_join} is empty and {w_start}, {w_end} are $1, $2.
SELECT {dimensions},
       sum(s.fraction * ledger.clipped_seconds(s.seg_start, coalesce(s.seg_end, $3), {w_start}, {w_end})) / 3600 AS hours
FROM ledger.allocation_segment s
{bucket_join}
WHERE s.seg_start < $2 AND s.seg_start < $3
  AND coalesce(s.seg_end, 'infinity'::timestamptz) > $1 AND coalesce(s.seg_end, $3) > $1
  {tenant_filter}
GROUP BY {groups}
ORDER BY {groups}
