-- Latency per service, pod and minute: one compressed HdrHistogram of microseconds per SLI, merged on write,
-- so a window's percentiles come from merging its minutes.
CREATE TABLE latency_minute (
    service   text        NOT NULL,
    namespace text        NOT NULL,
    pod       text        NOT NULL,
    minute    timestamptz NOT NULL,
    sli       text        NOT NULL CHECK (sli IN ('TTFT', 'ITL', 'E2E')),
    samples   bigint      NOT NULL CHECK (samples > 0),
    histogram bytea       NOT NULL,
    PRIMARY KEY (service, minute, namespace, pod, sli)
);

-- Requests and failed requests per service, pod and minute: the availability SLI's events, added on write.
CREATE TABLE request_minute (
    service   text        NOT NULL,
    namespace text        NOT NULL,
    pod       text        NOT NULL,
    minute    timestamptz NOT NULL,
    requests  bigint      NOT NULL CHECK (requests > 0),
    failed    bigint      NOT NULL CHECK (failed >= 0 AND failed <= requests),
    PRIMARY KEY (service, minute, namespace, pod)
);

-- The SHA-256 of every accepted ingest body: the same body sent again is recognised and stored once.
CREATE TABLE latency_batch (
    digest      text        PRIMARY KEY,
    records     integer     NOT NULL,
    received_at timestamptz NOT NULL
);
