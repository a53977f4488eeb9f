-- The MIG instances dcgm-exporter reports on a node's cards, as runs: one row per card, GPU instance id and profile
-- from the first to the last report, a gap longer than the staleness (gpumeter.ledger.mig.instance-staleness) starting
-- a new run. The usage rollups keep no profile; MIG consistency compares these with the node's configured layout.
CREATE TABLE gov_mig_instance_run (
    cluster    text        NOT NULL,
    node       text        NOT NULL,
    gpu_uuid   text        NOT NULL,
    instance   text        NOT NULL,
    profile    text        NOT NULL,
    first_seen timestamptz NOT NULL,
    last_seen  timestamptz NOT NULL,
    PRIMARY KEY (cluster, node, gpu_uuid, instance, profile, first_seen)
);

-- Nodes whose MIG views disagree and must be derived again at due_at without new facts (the grace running out, a
-- reported instance going stale); the periodic re-check takes those due under the cluster's governance lock.
CREATE TABLE gov_mig_recheck (
    cluster text        NOT NULL,
    node    text        NOT NULL,
    due_at  timestamptz NOT NULL,
    PRIMARY KEY (cluster, node)
);
CREATE INDEX gov_mig_recheck_due ON gov_mig_recheck (due_at);
