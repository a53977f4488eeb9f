-- Dynamic Resource Allocation (resource.k8s.io/v1): observed versions of ResourceClaims, ResourceSlices and
-- DeviceClasses under their natural keys, as the collector delivered them. The allocated ledger resolves a claim's
-- allocated devices through the slices of their driver and pool (see docs/adr/0009).
CREATE TABLE resource_claim_fact (
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
CREATE INDEX resource_claim_fact_name ON resource_claim_fact (cluster, namespace, name);

CREATE TABLE resource_slice_fact (
    cluster          text        NOT NULL,
    name             text        NOT NULL,
    resource_version text        NOT NULL,
    event_type       text        NOT NULL,
    driver           text        NOT NULL,
    pool             text        NOT NULL,
    revision         bigint,
    observed_at      timestamptz NOT NULL,
    payload          jsonb       NOT NULL,
    PRIMARY KEY (cluster, name, resource_version, event_type)
);
CREATE INDEX resource_slice_fact_pool ON resource_slice_fact (cluster, driver, pool);

CREATE TABLE device_class_fact (
    cluster          text        NOT NULL,
    name             text        NOT NULL,
    resource_version text        NOT NULL,
    event_type       text        NOT NULL,
    observed_at      timestamptz NOT NULL,
    payload          jsonb       NOT NULL,
    PRIMARY KEY (cluster, name, resource_version, event_type)
);

-- Which pods a claim binds, from either side: a pod version naming the claim (spec.resourceClaims resolved by
-- status.resourceClaimStatuses) or a claim version reserved for the pod. A change to a claim re-derives these pods,
-- and the pods sharing one claim are always derived together, since each one's share depends on the others.
CREATE TABLE pod_claim_link (
    cluster    text NOT NULL,
    namespace  text NOT NULL,
    claim_name text NOT NULL,
    pod_uid    text NOT NULL,
    PRIMARY KEY (cluster, namespace, claim_name, pod_uid)
);
CREATE INDEX pod_claim_link_pod ON pod_claim_link (cluster, pod_uid);
