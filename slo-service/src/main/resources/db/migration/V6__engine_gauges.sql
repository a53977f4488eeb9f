-- Inference engines' cache gauges per service, pod and minute: for each gauge the number of readings, their sum
-- and their largest, added on write, so any minutes and pods merge into an exact mean and max.
CREATE TABLE engine_gauge_minute (
    service       text        NOT NULL,
    namespace     text        NOT NULL,
    pod           text        NOT NULL,
    minute        timestamptz NOT NULL,
    kv_samples    integer     NOT NULL CHECK (kv_samples >= 0),
    kv_sum        double precision NOT NULL,
    kv_max        double precision,
    prefix_samples integer    NOT NULL CHECK (prefix_samples >= 0),
    prefix_sum    double precision NOT NULL,
    prefix_max    double precision,
    PRIMARY KEY (service, minute, namespace, pod),
    CHECK (kv_samples + prefix_samples > 0)
);

-- The SHA-256 of every accepted engine-gauge body: the same body sent again is recognised and stored once.
CREATE TABLE engine_gauge_batch (
    digest      text        PRIMARY KEY,
    lines       integer     NOT NULL,
    received_at timestamptz NOT NULL
);
