-- What each GPU pod asked for, from its creation until it ended: the "requested" column of quota
-- reconciliation (requested / allocated / used). Derived with the allocation segments, from the same facts.
CREATE TABLE pod_request (
    cluster            text        NOT NULL,
    pod_uid            text        NOT NULL,
    namespace          text        NOT NULL,
    pod                text        NOT NULL,
    requested_at       timestamptz NOT NULL,
    until              timestamptz,
    requested_fraction numeric     NOT NULL,
    tenant             text        NOT NULL,
    team               text        NOT NULL,
    project            text        NOT NULL,
    PRIMARY KEY (cluster, pod_uid),
    CHECK (until IS NULL OR until >= requested_at)
);
CREATE INDEX pod_request_time ON pod_request (requested_at);
