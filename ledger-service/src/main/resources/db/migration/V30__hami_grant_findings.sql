-- HAMi grants a pod's annotations name that the derivation did not book: the annotations are the tenant's to
-- write, so a grant books its card only where the pod's spec, its node's HAMi registration and the device side
-- agree with it. One row per pod, card and failed check; replaced with the pod's books.
CREATE TABLE ledger.hami_grant_finding (
    cluster     text        NOT NULL,
    pod_uid     text        NOT NULL,
    gpu_uuid    text        NOT NULL,
    failed_check text       NOT NULL,
    namespace   text        NOT NULL,
    pod         text        NOT NULL,
    node        text,
    memory_mib  bigint      NOT NULL,
    cores       int         NOT NULL,
    detail      text        NOT NULL,
    since       timestamptz NOT NULL,
    until       timestamptz,
    tenant      text,
    team        text,
    project     text,
    PRIMARY KEY (cluster, pod_uid, gpu_uuid, failed_check)
);
CREATE INDEX hami_grant_finding_gpu ON ledger.hami_grant_finding (cluster, gpu_uuid);
CREATE INDEX hami_grant_finding_since ON ledger.hami_grant_finding (since);
