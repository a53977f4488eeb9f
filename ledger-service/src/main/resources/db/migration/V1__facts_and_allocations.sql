-- Observed versions of Kubernetes objects, exactly as the collector delivered them. The natural key makes a
-- batch sent twice store once; the books below are derived from these rows alone.
CREATE TABLE namespace_fact (
    cluster          text        NOT NULL,
    name             text        NOT NULL,
    resource_version text        NOT NULL,
    event_type       text        NOT NULL,
    observed_at      timestamptz NOT NULL,
    payload          jsonb       NOT NULL,
    PRIMARY KEY (cluster, name, resource_version, event_type)
);

CREATE TABLE node_fact (
    cluster          text        NOT NULL,
    name             text        NOT NULL,
    resource_version text        NOT NULL,
    event_type       text        NOT NULL,
    revision         bigint,
    observed_at      timestamptz NOT NULL,
    payload          jsonb       NOT NULL,
    PRIMARY KEY (cluster, name, resource_version, event_type)
);

CREATE TABLE pod_fact (
    cluster          text        NOT NULL,
    uid              text        NOT NULL,
    resource_version text        NOT NULL,
    event_type       text        NOT NULL,
    namespace        text        NOT NULL,
    node_name        text,
    observed_at      timestamptz NOT NULL,
    payload          jsonb       NOT NULL,
    PRIMARY KEY (cluster, uid, resource_version, event_type)
);
CREATE INDEX pod_fact_namespace ON pod_fact (cluster, namespace);
CREATE INDEX pod_fact_node ON pod_fact (cluster, node_name);

-- The GPU inventory: physical GPU UUID is the root key.
CREATE TABLE gpu_device (
    cluster     text        NOT NULL,
    uuid        text        NOT NULL,
    node        text        NOT NULL,
    model       text,
    memory_mib  bigint,
    first_seen  timestamptz NOT NULL,
    last_seen   timestamptz NOT NULL,
    PRIMARY KEY (cluster, uuid)
);
CREATE INDEX gpu_device_uuid ON gpu_device (uuid);

-- The allocated ledger: [seg_start, seg_end) during which a pod held one unit with one attribution.
-- since/until bound the whole allocation; seg_end and until are null while the unit is held.
CREATE TABLE allocation_segment (
    cluster     text        NOT NULL,
    pod_uid     text        NOT NULL,
    unit_index  int         NOT NULL,
    seg_start   timestamptz NOT NULL,
    seg_end     timestamptz,
    since       timestamptz NOT NULL,
    until       timestamptz,
    namespace   text        NOT NULL,
    pod         text        NOT NULL,
    node        text,
    gpu_uuid    text,
    gpu_model   text,
    unit_kind   text        NOT NULL,
    mig_profile text,
    cores       int,
    memory_mib  bigint,
    fraction    numeric     NOT NULL,
    source      text        NOT NULL,
    owner_kind  text,
    owner_name  text,
    tenant      text        NOT NULL,
    team        text        NOT NULL,
    project     text        NOT NULL,
    PRIMARY KEY (cluster, pod_uid, unit_index, seg_start),
    CHECK (seg_end IS NULL OR seg_end >= seg_start)
);
CREATE INDEX allocation_segment_gpu ON allocation_segment (gpu_uuid, seg_start);
CREATE INDEX allocation_segment_node ON allocation_segment (cluster, node, seg_start);
CREATE INDEX allocation_segment_time ON allocation_segment USING brin (seg_start);
CREATE INDEX allocation_segment_open ON allocation_segment (seg_start) WHERE seg_end IS NULL;
