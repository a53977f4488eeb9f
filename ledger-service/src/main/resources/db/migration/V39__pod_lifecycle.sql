-- Each pod's lifecycle, kept at intake in the statement that stores its versions: when it was created, scheduled,
-- deleted and finished, and the GPU resources of its newest version. The idle split's pending pods read it instead
-- of grouping every stored version of every pod and parsing five payload fields of each (14-20 us a version: 1.4 s
-- at 100,000 versions, about 30 s at a 1,000,000-pod month's 2,000,000). A window cannot be applied to the versions
-- first: a pod created long before the window and still unscheduled has no version inside it.
--
-- Every column is a minimum or the newest of its pod's versions, so versions that arrive late, twice or in several
-- batches leave the same row (FactRepository's upsert takes least() of each time and the resources of the greater
-- (observed_at, resources) pair).
CREATE TABLE ledger.pod_lifecycle (
    cluster               text        NOT NULL,
    uid                   text        NOT NULL,
    -- min(createdAt, or observed_at where a version has none)
    created               timestamptz NOT NULL,
    -- min(scheduledAt)
    scheduled             timestamptz,
    -- min(least(observed_at, deletionTimestamp)) of the DELETED events
    deleted               timestamptz,
    -- min(observed_at) of the versions in phase Succeeded or Failed
    finished              timestamptz,
    -- gpuResources of the version observed last; ties go to the greater text, so the order of arrival never decides
    resources             jsonb,
    resources_observed_at timestamptz NOT NULL,
    PRIMARY KEY (cluster, uid)
);

-- The pending read asks, per cluster, for the pods whose wait ends after the window's start (every pod that waited
-- in a week of a month, a small part of all) and were created before its end (most of those). The end of the wait
-- leads, as the expression the read writes; created beside it is tested in the index without visiting the table.
CREATE INDEX pod_lifecycle_waiting ON ledger.pod_lifecycle
    (cluster, (coalesce(least(scheduled, deleted, finished), 'infinity'::timestamptz)), created);

-- Backfill, with the definitions the pending read used on the versions until now.
INSERT INTO ledger.pod_lifecycle (cluster, uid, created, scheduled, deleted, finished, resources, resources_observed_at)
SELECT cluster, uid,
       min(coalesce(created_at, observed_at)),
       min(scheduled_at),
       min(least(observed_at, deletion_at)) FILTER (WHERE event_type = 'DELETED'),
       min(observed_at) FILTER (WHERE phase IN ('Succeeded', 'Failed')),
       (array_agg(gpu_resources ORDER BY observed_at DESC, coalesce(gpu_resources::text, '') DESC))[1],
       max(observed_at)
FROM ledger.pod_fact_fields
GROUP BY cluster, uid;

ANALYZE ledger.pod_lifecycle;
