-- A pod version carries its governance view when both arrive in one bundle and agree (ADR 0016): the governance view
-- of a watch event is the metering view plus a few status fields, so it is kept as those fields (status) beside the
-- metering payload, in the same row, instead of as a second row with a second copy of everything. A governance view
-- that arrives alone, or says something its pod version does not, is still a row of gov_pod_status_fact.
ALTER TABLE ledger.pod_fact
    ADD COLUMN name       text,
    ADD COLUMN owner_kind text,
    ADD COLUMN owner_name text,
    ADD COLUMN status     json;
UPDATE ledger.pod_fact
SET name       = payload->>'name',
    owner_kind = payload->'owner'->>'kind',
    owner_name = payload->'owner'->>'name';

-- (cluster, namespace, name) serves what (cluster, namespace) served, and the governance reads by name.
DROP INDEX ledger.pod_fact_namespace;
CREATE INDEX pod_fact_name ON ledger.pod_fact (cluster, namespace, name);
CREATE INDEX pod_fact_owner ON ledger.pod_fact (cluster, namespace, owner_kind, owner_name) WHERE status IS NOT NULL;

-- Every governance view of a pod version, wherever it is kept: carried by its pod version (pod and status set) or
-- on its own (governed set). The key is unique across both halves: the ledger stores a view in one place only.
-- The filter stands outside the UNION ALL: PostgreSQL flattens the halves into one append only when neither has a
-- WHERE of its own, and only then does a condition on the view reach each half's indexes (a name, an owner, a uid).
CREATE VIEW ledger.pod_status_version AS
SELECT *
FROM (SELECT cluster, uid, resource_version, event_type, namespace, name, owner_kind, owner_name, node_name,
             observed_at, payload AS pod, status, NULL::json AS governed
      FROM ledger.pod_fact
      UNION ALL
      SELECT cluster, uid, resource_version, event_type, namespace, name, owner_kind, owner_name, node_name,
             observed_at, NULL::json, NULL::json, payload
      FROM ledger.gov_pod_status_fact) v
WHERE v.status IS NOT NULL OR v.governed IS NOT NULL;

-- The analytics views keep their columns. A carried view's payload is the pod version's fields with the status
-- fields added: every field of a governance view is there (deletedAt beside deletionTimestamp), plus the metering
-- fields (labels, vgpus, claims...).
DROP VIEW ledger.pod_fact_fields;
CREATE VIEW ledger.pod_fact_fields AS
SELECT f.cluster, f.uid, f.resource_version, f.event_type, f.namespace, f.node_name, f.observed_at, f.payload,
       f.name,
       (f.payload->>'createdAt')::timestamptz AS created_at,
       (f.payload->>'scheduledAt')::timestamptz AS scheduled_at,
       (f.payload->>'deletionTimestamp')::timestamptz AS deletion_at,
       f.payload->>'phase' AS phase,
       (f.payload->'gpuResources')::jsonb AS gpu_resources,
       f.owner_kind, f.owner_name, f.status
FROM ledger.pod_fact f;

DROP VIEW ledger.gov_pod_status_fact_fields;
CREATE VIEW ledger.gov_pod_status_fact_fields AS
SELECT v.cluster, v.uid, v.resource_version, v.event_type, v.namespace, v.name, v.owner_kind, v.owner_name,
       v.observed_at, coalesce(v.governed, (v.pod::jsonb || v.status::jsonb)::json) AS payload, v.node_name
FROM ledger.pod_status_version v;
