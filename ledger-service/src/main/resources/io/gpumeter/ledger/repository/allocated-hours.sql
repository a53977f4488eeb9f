-- Allocated card-equivalent seconds per group and piece of the window [$1, $2), each segment clipped exactly to the
-- piece and a held unit counted up to $3, the earlier of the window's end and now; summed with exact numerics (the
-- report adds up the pieces and divides by 3600 once). $4 is the tenant asked for, null for all. {dimensions} and
-- {groups} are the group columns over `s`; {tenant_filter} is "AND tenant = $4" when a tenant is asked for, else
-- "AND $4::text IS NULL". {bucket_join} joins the pieces k(bucket, b_start, b_end) ($5 to $7, inside the window) that
-- a segment overlaps, so a segment across a seam counts in each piece exactly its part.
SELECT k.bucket AS piece, {dimensions},
       sum(s.fraction * ledger.clipped_seconds(s.seg_start, coalesce(s.seg_end, $3), k.b_start, k.b_end)) AS seconds
FROM ledger.allocation_segment s
{bucket_join}
WHERE s.seg_start < $2 AND s.seg_start < $3
  AND coalesce(s.seg_end, 'infinity'::timestamptz) > $1 AND coalesce(s.seg_end, $3) > $1
  {tenant_filter}
GROUP BY k.bucket, {groups}
