-- Governance facts (Kueue, Volcano, Events, the governance view of GPU pods, kernel-log Xids, pushed log signals),
-- stored under natural keys exactly as the collector delivered them; the books below are derived from them alone.
CREATE TABLE gov_workload_fact (
    cluster          text        NOT NULL,
    uid              text        NOT NULL,
    resource_version text        NOT NULL,
    event_type       text        NOT NULL,
    namespace        text        NOT NULL,
    name             text        NOT NULL,
    observed_at      timestamptz NOT NULL,
    payload          jsonb       NOT NULL,
    PRIMARY KEY (cluster, uid, resource_version, event_type)
);
CREATE INDEX gov_workload_fact_name ON gov_workload_fact (cluster, namespace, name);

CREATE TABLE gov_queue_object_fact (
    cluster          text        NOT NULL,
    kind             text        NOT NULL,
    namespace        text        NOT NULL,
    name             text        NOT NULL,
    resource_version text        NOT NULL,
    event_type       text        NOT NULL,
    revision         bigint,
    observed_at      timestamptz NOT NULL,
    payload          jsonb       NOT NULL,
    PRIMARY KEY (cluster, kind, namespace, name, resource_version, event_type)
);

CREATE TABLE gov_pod_group_fact (
    cluster          text        NOT NULL,
    uid              text        NOT NULL,
    resource_version text        NOT NULL,
    event_type       text        NOT NULL,
    namespace        text        NOT NULL,
    name             text        NOT NULL,
    observed_at      timestamptz NOT NULL,
    payload          jsonb       NOT NULL,
    PRIMARY KEY (cluster, uid, resource_version, event_type)
);
CREATE INDEX gov_pod_group_fact_name ON gov_pod_group_fact (cluster, namespace, name);

CREATE TABLE gov_volcano_job_fact (
    cluster          text        NOT NULL,
    uid              text        NOT NULL,
    resource_version text        NOT NULL,
    event_type       text        NOT NULL,
    namespace        text        NOT NULL,
    name             text        NOT NULL,
    observed_at      timestamptz NOT NULL,
    payload          jsonb       NOT NULL,
    PRIMARY KEY (cluster, uid, resource_version, event_type)
);

CREATE TABLE gov_event_fact (
    cluster           text        NOT NULL,
    uid               text        NOT NULL,
    resource_version  text        NOT NULL,
    involved_kind     text        NOT NULL,
    involved_namespace text,
    involved_name     text        NOT NULL,
    involved_uid      text,
    reason            text        NOT NULL,
    first_at          timestamptz NOT NULL,
    observed_at       timestamptz NOT NULL,
    payload           jsonb       NOT NULL,
    PRIMARY KEY (cluster, uid, resource_version)
);
CREATE INDEX gov_event_fact_uid ON gov_event_fact (cluster, involved_uid);
CREATE INDEX gov_event_fact_name ON gov_event_fact (cluster, involved_kind, involved_namespace, involved_name);

CREATE TABLE gov_pod_status_fact (
    cluster          text        NOT NULL,
    uid              text        NOT NULL,
    resource_version text        NOT NULL,
    event_type       text        NOT NULL,
    namespace        text        NOT NULL,
    name             text        NOT NULL,
    owner_kind       text,
    owner_name       text,
    observed_at      timestamptz NOT NULL,
    payload          jsonb       NOT NULL,
    PRIMARY KEY (cluster, uid, resource_version, event_type)
);
CREATE INDEX gov_pod_status_fact_name ON gov_pod_status_fact (cluster, namespace, name);
CREATE INDEX gov_pod_status_fact_owner ON gov_pod_status_fact (cluster, namespace, owner_kind, owner_name);

CREATE TABLE gov_xid_fact (
    cluster     text        NOT NULL,
    node        text        NOT NULL,
    pci_bus_id  text        NOT NULL,
    at          timestamptz NOT NULL,
    code        int         NOT NULL,
    message     text        NOT NULL,
    gpu_uuid    text,
    payload     jsonb       NOT NULL,
    PRIMARY KEY (cluster, node, pci_bus_id, at, code, message)
);

CREATE TABLE gov_gpu_address_fact (
    cluster     text        NOT NULL,
    node        text        NOT NULL,
    pci_bus_id  text        NOT NULL,
    gpu_uuid    text        NOT NULL,
    at          timestamptz NOT NULL,
    PRIMARY KEY (cluster, node, pci_bus_id, gpu_uuid, at)
);

CREATE TABLE gov_log_signal_fact (
    cluster     text        NOT NULL,
    namespace   text        NOT NULL,
    pod         text        NOT NULL,
    container   text        NOT NULL,
    at          timestamptz NOT NULL,
    signal      text        NOT NULL,
    payload     jsonb       NOT NULL,
    PRIMARY KEY (cluster, namespace, pod, container, at, signal)
);

-- Derived books, replaced per object by each batch that touches it.

-- One row per admission (Kueue QuotaReserved+Admitted, Volcano Scheduled) or scheduling (plain pod) episode.
CREATE TABLE gov_queue_wait (
    cluster       text        NOT NULL,
    source        text        NOT NULL,
    object_uid    text        NOT NULL,
    reserved_at   timestamptz NOT NULL,
    namespace     text        NOT NULL,
    name          text        NOT NULL,
    cluster_queue text,
    local_queue   text,
    volcano_queue text,
    scheduler     text,
    wait_from     timestamptz NOT NULL,
    admitted_at   timestamptz NOT NULL,
    wait_ms       bigint      NOT NULL,
    requeued      boolean     NOT NULL,
    PRIMARY KEY (cluster, source, object_uid, reserved_at)
);
CREATE INDEX gov_queue_wait_admitted ON gov_queue_wait (admitted_at);

-- The current queue state of each workload, pod group and GPU pod.
CREATE TABLE gov_queue_item (
    cluster       text        NOT NULL,
    source        text        NOT NULL,
    object_uid    text        NOT NULL,
    namespace     text        NOT NULL,
    name          text        NOT NULL,
    cluster_queue text,
    local_queue   text,
    volcano_queue text,
    scheduler     text,
    created_at    timestamptz NOT NULL,
    state         text        NOT NULL,
    waiting_since timestamptz,
    reason_class  text,
    reason        text,
    message       text,
    rejections    int         NOT NULL,
    admissions    int         NOT NULL,
    PRIMARY KEY (cluster, source, object_uid)
);
CREATE INDEX gov_queue_item_pending ON gov_queue_item (cluster, state) WHERE state = 'PENDING';

-- Failures with start and recovery, per pod (container states, events, pushed log signals) and per GPU (Xids).
CREATE TABLE gov_incident (
    cluster      text        NOT NULL,
    incident_key text        NOT NULL,
    scope        text        NOT NULL,
    subject      text        NOT NULL,
    cause        text        NOT NULL,
    root_class   text        NOT NULL,
    node         text,
    gpu_pci      text,
    gpu_uuid     text,
    namespace    text,
    pod          text,
    pod_uid      text,
    started_at   timestamptz NOT NULL,
    recovered_at timestamptz,
    ended_at     timestamptz,
    occurrences  int         NOT NULL,
    evidence     text,
    PRIMARY KEY (cluster, incident_key),
    CHECK (recovered_at IS NULL OR recovered_at >= started_at)
);
CREATE INDEX gov_incident_subject ON gov_incident (cluster, scope, subject);
CREATE INDEX gov_incident_started ON gov_incident (started_at);
