-- The pieces the analytics queries share, defined once here and used by the repositories by name. The functions
-- are plain SQL (never STRICT or VOLATILE) so the planner inlines them into the calling query, and the views are
-- simple enough to be flattened into it: filters on their columns still reach the indexes of the tables below.

-- An instant held inside a window [w_start, w_end]. An interval is clipped to a window by clipping both its ends;
-- an interval that does not overlap the window comes out empty (both ends on the same bound).
CREATE FUNCTION ledger.clip(t timestamptz, w_start timestamptz, w_end timestamptz) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT least(greatest(t, w_start), w_end) $$;

-- Seconds of [t_start, t_end) that fall inside the window [w_start, w_end), as an exact numeric.
CREATE FUNCTION ledger.clipped_seconds(t_start timestamptz, t_end timestamptz, w_start timestamptz, w_end timestamptz)
    RETURNS numeric
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT extract(epoch FROM ledger.clip(t_end, w_start, w_end) - ledger.clip(t_start, w_start, w_end)) $$;

-- The activity of the cards named by (p_clusters, p_gpu_uuids) per minute of [w_start, w_end): of each card (scope
-- DEVICE, scope_key '') and of each of its MIG instances (MIG_INSTANCE, scope_key the GPU instance id), SM_ACTIVE
-- where measured, else GR_ENGINE_ACTIVE, else GPU_UTIL; `metric` names the one taken. The card's GPU_UTIL is kept
-- beside it as `util`, the measure per-process SM time is a share of. The cards and the window are applied to
-- usage_minute before the grouping; a caller passes the clusters and the cards it reads as two arrays (a pair in
-- neither is read, a pair that is not the caller's is dropped by its join on both columns).
CREATE FUNCTION ledger.card_activity(p_clusters text[], p_gpu_uuids text[], w_start timestamptz, w_end timestamptz)
    RETURNS TABLE (cluster text, gpu_uuid text, scope text, scope_key text, minute timestamptz,
                   act double precision, metric text, util double precision)
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
SELECT u.cluster, u.gpu_uuid, u.scope, u.scope_key, u.minute,
       coalesce(max(u.sum / u.samples) FILTER (WHERE u.field = 'SM_ACTIVE'),
                max(u.sum / u.samples) FILTER (WHERE u.field = 'GR_ENGINE_ACTIVE'),
                max(u.sum / u.samples) FILTER (WHERE u.field = 'GPU_UTIL')),
       CASE WHEN bool_or(u.field = 'SM_ACTIVE') THEN 'SM_ACTIVE'
            WHEN bool_or(u.field = 'GR_ENGINE_ACTIVE') THEN 'GR_ENGINE_ACTIVE'
            ELSE 'GPU_UTIL' END,
       max(u.sum / u.samples) FILTER (WHERE u.field = 'GPU_UTIL')
FROM ledger.usage_minute u
WHERE u.cluster = ANY (p_clusters) AND u.gpu_uuid = ANY (p_gpu_uuids)
  AND u.minute >= date_trunc('minute', w_start) AND u.minute < w_end
  AND u.scope IN ('DEVICE', 'MIG_INSTANCE') AND u.field IN ('SM_ACTIVE', 'GR_ENGINE_ACTIVE', 'GPU_UTIL')
GROUP BY u.cluster, u.gpu_uuid, u.scope, u.scope_key, u.minute
$$;

-- The fields of the stored fact payloads that SQL reads, as named columns. The payload stays as delivered (the
-- collector's JSON names); these views are the one place those names appear in SQL.
CREATE VIEW ledger.pod_fact_fields AS
SELECT f.*,
       f.payload->>'name' AS name,
       (f.payload->>'createdAt')::timestamptz AS created_at,
       (f.payload->>'scheduledAt')::timestamptz AS scheduled_at,
       (f.payload->>'deletionTimestamp')::timestamptz AS deletion_at,
       f.payload->>'phase' AS phase,
       f.payload->'gpuResources' AS gpu_resources
FROM ledger.pod_fact f;

CREATE VIEW ledger.gov_event_fact_fields AS
SELECT f.*, (f.payload->>'count')::int AS count
FROM ledger.gov_event_fact f;

CREATE VIEW ledger.gov_queue_object_fact_fields AS
SELECT f.*, f.payload->>'clusterQueue' AS cluster_queue
FROM ledger.gov_queue_object_fact f;

CREATE VIEW ledger.gov_pod_group_fact_fields AS
SELECT f.*, f.payload->>'queue' AS queue
FROM ledger.gov_pod_group_fact f;

-- node_name is the expression of the index gov_pod_status_fact_node, so reads by node through the view use it.
CREATE VIEW ledger.gov_pod_status_fact_fields AS
SELECT f.*, f.payload->>'nodeName' AS node_name
FROM ledger.gov_pod_status_fact f;

-- One tenant's segments of a window: the tenant, then the segments still open or ended after the window starts
-- (an open segment sorts as ending at infinity), then their start.
CREATE INDEX allocation_segment_tenant_end
    ON ledger.allocation_segment (tenant, (coalesce(seg_end, 'infinity'::timestamptz)), seg_start);
