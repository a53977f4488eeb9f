-- Post-incident reviews, keyed by the ledger's stable incident id. A review that changes what an earlier one decided
-- is a new version; the same review sent again is the stored one. Each version is one row, written whole: what was
-- decided, the prevention items, and what the suite knew then (the ledger's incident, the triage answer with its
-- evidence, and the redacted inputs a regression case replays), stored as computed and never computed again.
CREATE TABLE alert.incident_review (
    incident_id     text        NOT NULL,
    version         integer     NOT NULL CHECK (version >= 1),
    content_hash    text        NOT NULL,
    root_cause      text        NOT NULL,
    cause           text        NOT NULL,
    summary         text        NOT NULL,
    prevention      jsonb       NOT NULL,
    reviewer        text        NOT NULL,
    reviewed_at     timestamptz NOT NULL,
    incident        jsonb       NOT NULL,
    triage          jsonb,
    triage_note     text,
    inputs          jsonb,
    inputs_note     text,
    PRIMARY KEY (incident_id, version)
);
