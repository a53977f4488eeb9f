-- The GPU stack's state: what each version of a node offers (capacity, allocatable, cordon, taints, GPU labels, the
-- suite's own annotations), the stack's workloads (DaemonSets, Deployments) and their pods per node, and the driver
-- versions the data paths saw. Stored under natural keys exactly as the collector delivered them.
CREATE TABLE gov_node_status_fact (
    cluster          text        NOT NULL,
    name             text        NOT NULL,
    resource_version text        NOT NULL,
    event_type       text        NOT NULL,
    revision         bigint,
    observed_at      timestamptz NOT NULL,
    payload          jsonb       NOT NULL,
    PRIMARY KEY (cluster, name, resource_version, event_type)
);

CREATE TABLE gov_stack_workload_fact (
    cluster          text        NOT NULL,
    namespace        text        NOT NULL,
    name             text        NOT NULL,
    resource_version text        NOT NULL,
    event_type       text        NOT NULL,
    component        text        NOT NULL,
    revision         bigint,
    observed_at      timestamptz NOT NULL,
    payload          jsonb       NOT NULL,
    PRIMARY KEY (cluster, namespace, name, resource_version, event_type)
);
CREATE INDEX gov_stack_workload_fact_component ON gov_stack_workload_fact (cluster, component);

CREATE TABLE gov_stack_pod_fact (
    cluster          text        NOT NULL,
    namespace        text        NOT NULL,
    name             text        NOT NULL,
    resource_version text        NOT NULL,
    event_type       text        NOT NULL,
    component        text        NOT NULL,
    node             text,
    revision         bigint,
    observed_at      timestamptz NOT NULL,
    payload          jsonb       NOT NULL,
    PRIMARY KEY (cluster, namespace, name, resource_version, event_type)
);
CREATE INDEX gov_stack_pod_fact_node ON gov_stack_pod_fact (cluster, node, component);

-- One row per card, data path and version: when that version was first and last seen.
CREATE TABLE gov_driver_sighting (
    cluster    text        NOT NULL,
    node       text        NOT NULL,
    gpu_uuid   text        NOT NULL,
    source     text        NOT NULL,
    version    text        NOT NULL,
    first_seen timestamptz NOT NULL,
    last_seen  timestamptz NOT NULL,
    PRIMARY KEY (cluster, node, gpu_uuid, source, version)
);

-- The change book, derived from the set of stored versions of its scope (a node; a stack component or a queue,
-- cluster-wide with node NULL) and replaced whole for that scope whenever one of its versions arrives. Changes of
-- one subject within one minute are one row with their count. The id is a hash of the row's natural key (cluster,
-- scope, kind, subject, minute), so it stays the same when the scope is derived again.
CREATE TABLE gov_change (
    cluster text        NOT NULL,
    id      text        NOT NULL,
    scope   text        NOT NULL,
    node    text,
    at      timestamptz NOT NULL,
    kind    text        NOT NULL,
    subject text,
    before  text,
    after   text,
    source  text        NOT NULL,
    count   int         NOT NULL,
    PRIMARY KEY (cluster, id)
);
-- A change named by its id alone (its impact).
CREATE INDEX gov_change_id ON gov_change (id);
-- A node's (or the cluster-wide, node NULL) changes over a window: one index range.
CREATE INDEX gov_change_node_at ON gov_change (cluster, node, at);
CREATE INDEX gov_change_scope ON gov_change (cluster, scope);
CREATE INDEX gov_change_at ON gov_change (at);

-- Which clusters' stored history the book has been derived from, under which rules (the excluded heartbeat labels):
-- a cluster missing here, or derived under other rules, is derived again from every stored version at start.
CREATE TABLE gov_change_derivation (
    cluster    text        NOT NULL PRIMARY KEY,
    rules      text        NOT NULL,
    derived_at timestamptz NOT NULL
);
