-- Jitter events: runs of consecutive minutes whose p99 was over k x a latency SLO's threshold. A run that meets or
-- adjoins a stored event of the same SLO extends it, so detecting a window again never adds a second event.
-- evidence holds what attribution found (pods, their GPUs, same-card neighbours with their curves, the service's
-- p50/p95/p99 curve, ranked suspects); it is rebuilt on every detection that covers the event.
CREATE TABLE jitter_event (
    id           bigserial   PRIMARY KEY,
    slo          text        NOT NULL,
    service      text        NOT NULL,
    sli          text        NOT NULL CHECK (sli IN ('TTFT', 'ITL', 'E2E')),
    started_at   timestamptz NOT NULL,
    ended_at     timestamptz NOT NULL CHECK (ended_at > started_at),
    bad_minutes  integer     NOT NULL CHECK (bad_minutes > 0),
    peak_p99_ms  double precision NOT NULL,
    threshold_ms numeric     NOT NULL,
    factor       numeric     NOT NULL,
    evidence     jsonb       NOT NULL,
    detected_at  timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    UNIQUE (slo, started_at)
);

CREATE INDEX jitter_event_by_time ON jitter_event (started_at, service);
