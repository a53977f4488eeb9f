-- Acceptance runs: a plan evaluated once, stored as computed (the run's JSON), so a run read again, or its verdict
-- and pack rendered again, answers the same bytes.
CREATE TABLE acceptance_run (
    id          bigserial   PRIMARY KEY,
    name        text        NOT NULL,
    window_from timestamptz NOT NULL,
    window_to   timestamptz NOT NULL,
    verdict     text        NOT NULL CHECK (verdict IN ('PASS', 'FAIL', 'NO_DATA')),
    created_at  timestamptz NOT NULL,
    plan        text        NOT NULL,
    run         text        NOT NULL
);

CREATE INDEX acceptance_run_created ON acceptance_run (created_at DESC, id DESC);
