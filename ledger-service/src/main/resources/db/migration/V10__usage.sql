-- Usage rollups per series and minute. `seconds` is a bitmask of the seconds of the minute already counted, so
-- a sample delivered twice is counted once (a series carries at most one sample per second). Used GPU-hours are
-- integrals over these rows, never averages of averages. Daily partitions are created as data arrives.
CREATE TABLE usage_minute (
    cluster   text             NOT NULL,
    gpu_uuid  text             NOT NULL,
    scope     text             NOT NULL,
    scope_key text             NOT NULL,
    field     text             NOT NULL,
    minute    timestamptz      NOT NULL,
    sum       double precision NOT NULL,
    max       double precision NOT NULL,
    samples   integer          NOT NULL,
    seconds   bigint           NOT NULL,
    PRIMARY KEY (cluster, gpu_uuid, scope, scope_key, field, minute)
) PARTITION BY RANGE (minute);

-- Which pod an exporter saw on which card (or MIG instance): names the cards of allocations the pod object
-- did not name, so Q1 answers them too.
CREATE TABLE gpu_binding (
    cluster     text        NOT NULL,
    namespace   text        NOT NULL,
    pod         text        NOT NULL,
    gpu_uuid    text        NOT NULL,
    scope_key   text        NOT NULL,
    mig_profile text,
    first_seen  timestamptz NOT NULL,
    last_seen   timestamptz NOT NULL,
    PRIMARY KEY (cluster, namespace, pod, gpu_uuid, scope_key)
);
