-- Where pending Kueue Workloads stood in their ClusterQueue and LocalQueue each time the collector read Kueue's
-- visibility API; GET /queue-wait/pending shows each pending workload's latest.
CREATE TABLE gov_pending_position (
    cluster       text        NOT NULL,
    cluster_queue text        NOT NULL,
    namespace     text        NOT NULL,
    workload      text        NOT NULL,
    observed_at   timestamptz NOT NULL,
    local_queue   text,
    priority      int,
    position_cq   int         NOT NULL,
    position_lq   int,
    PRIMARY KEY (cluster, cluster_queue, namespace, workload, observed_at)
);
CREATE INDEX gov_pending_position_workload ON gov_pending_position (cluster, namespace, workload, observed_at DESC);
