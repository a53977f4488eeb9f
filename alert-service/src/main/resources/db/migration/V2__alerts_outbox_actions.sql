-- Alerts alert-service raises itself: one row per episode (an alert's fingerprint and when it started firing).
CREATE TABLE alert.episode (
    fingerprint       text        NOT NULL,
    starts_at         timestamptz NOT NULL,
    alertname         text        NOT NULL,
    severity          text        NOT NULL,
    labels            jsonb       NOT NULL,
    annotations       jsonb       NOT NULL,
    state             text        NOT NULL CHECK (state IN ('firing', 'resolved')),
    ends_at           timestamptz,
    last_evaluated_at timestamptz NOT NULL,
    PRIMARY KEY (fingerprint, starts_at)
);
-- An alert fires at most once at a time.
CREATE UNIQUE INDEX episode_one_firing ON alert.episode (fingerprint) WHERE state = 'firing';
CREATE INDEX episode_ends_at ON alert.episode (ends_at);

-- Each rule's state after the newest evaluation.
CREATE TABLE alert.rule_status (
    alertname    text        PRIMARY KEY,
    severity     text        NOT NULL,
    condition    text        NOT NULL,
    status       text        NOT NULL,
    note         text,
    firing       integer     NOT NULL,
    evaluated_at timestamptz NOT NULL
);

-- What Alertmanager has yet to accept: the newest state of each episode, kept until a POST succeeds.
CREATE SEQUENCE alert.outbox_version;
CREATE TABLE alert.outbox (
    fingerprint     text        NOT NULL,
    starts_at       timestamptz NOT NULL,
    payload         jsonb       NOT NULL,
    version         bigint      NOT NULL,
    enqueued_at     timestamptz NOT NULL,
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    last_error      text,
    PRIMARY KEY (fingerprint, starts_at)
);
CREATE INDEX outbox_due ON alert.outbox (next_attempt_at);

-- Alerts received through Alertmanager's webhook, once per fingerprint and startsAt.
CREATE TABLE alert.received (
    fingerprint       text        NOT NULL,
    starts_at         timestamptz NOT NULL,
    alertname         text        NOT NULL,
    status            text        NOT NULL CHECK (status IN ('firing', 'resolved')),
    labels            jsonb       NOT NULL,
    annotations       jsonb       NOT NULL,
    ends_at           timestamptz,
    generator_url     text,
    receiver          text,
    group_key         text,
    first_received_at timestamptz NOT NULL,
    last_received_at  timestamptz NOT NULL,
    resolved_at       timestamptz,
    deliveries        integer     NOT NULL DEFAULT 1,
    PRIMARY KEY (fingerprint, starts_at)
);

-- The audit of runbook actions: alert → action → result, and on resolve what was undone.
CREATE TABLE alert.action (
    id                bigserial   PRIMARY KEY,
    alert_fingerprint text        NOT NULL,
    alertname         text        NOT NULL,
    starts_at         timestamptz NOT NULL,
    action            text        NOT NULL,
    mode              text        NOT NULL,
    target            text        NOT NULL,
    result            text        NOT NULL,
    detail            text,
    at                timestamptz NOT NULL,
    resolved_at       timestamptz,
    undo_result       text,
    undo_detail       text,
    undone_at         timestamptz,
    UNIQUE (alert_fingerprint, starts_at, action)
);
CREATE INDEX action_at ON alert.action (at);
CREATE INDEX action_holding ON alert.action (action, target) WHERE resolved_at IS NULL;
