-- Latency retention: minutes older than the minute retention are folded into one row per hour (the minute column
-- then holds the hour's start, and `minutes` how many minutes the row stands for), and hour rows older than the hour
-- retention are deleted. Readers need no second table: an old window is answered from whole hours.
ALTER TABLE latency_minute ADD COLUMN minutes smallint NOT NULL DEFAULT 1 CHECK (minutes BETWEEN 1 AND 60);
ALTER TABLE request_minute ADD COLUMN minutes smallint NOT NULL DEFAULT 1 CHECK (minutes BETWEEN 1 AND 60);

-- How far each service's minutes have been folded: everything of the service before folded_before is in hour rows,
-- except minutes delivered after their hour was folded (kept as they came, deleted with the hours).
CREATE TABLE latency_fold (
    service       text        PRIMARY KEY,
    folded_before timestamptz NOT NULL
);
