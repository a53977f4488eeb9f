-- Service level objectives, one per name; the objective columns are null for AVAILABILITY.
CREATE TABLE slo_definition (
    name                   text        PRIMARY KEY,
    service                text        NOT NULL,
    sli                    text        NOT NULL CHECK (sli IN ('TTFT', 'ITL', 'E2E', 'AVAILABILITY')),
    objective_percentile   numeric     CHECK (objective_percentile > 0 AND objective_percentile <= 100),
    objective_threshold_ms numeric     CHECK (objective_threshold_ms > 0),
    objective_per          text        CHECK (objective_per IN ('MINUTE', 'REQUEST')),
    target                 numeric     NOT NULL CHECK (target > 0 AND target < 1),
    slo_window             text        NOT NULL,
    created_at             timestamptz NOT NULL,
    updated_at             timestamptz NOT NULL,
    CHECK ((sli = 'AVAILABILITY') = (objective_per IS NULL))
);
