-- What a pod held at an instant is looked up by the pod's name.
CREATE INDEX allocation_segment_pod ON allocation_segment (namespace, pod, seg_start);

-- dcgm-exporter's DCGM_FI_DEV_XID_ERRORS (DCGM 4.x: DCGM_FI_DEV_XID_ERROR) is a last-value gauge repeated on every
-- scrape: the last Xid code the card reported, 0 for none. The failure books need only where its value changes, so
-- each delivery keeps the first and last reading of every run of one value and readings inside a run are
-- compacted away. A reading delivered twice is stored once.
CREATE TABLE gpu_xid_reading (
    cluster  text        NOT NULL,
    gpu_uuid text        NOT NULL,
    at       timestamptz NOT NULL,
    code     int         NOT NULL,
    node     text,
    PRIMARY KEY (cluster, gpu_uuid, at)
);

-- Node events (OOMKilling) are read per node; OOM-killed containers are found by the node their pod ran on.
CREATE INDEX gov_event_fact_node ON gov_event_fact (cluster, involved_name) WHERE involved_kind = 'Node';
CREATE INDEX gov_pod_status_fact_node ON gov_pod_status_fact (cluster, (payload->>'nodeName'));
