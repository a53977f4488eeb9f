-- Day books: the answers of reports over a day that is over (its GPU-hours per group, in raw seconds), kept so that a
-- month's report adds up thirty stored days and computes only the days whose facts changed since, and today.
--
-- A stored answer carries the snapshot it was computed in. Every statement that writes a table the answers read
-- records, in the same transaction, the UTC days it touched (book_change, written by the triggers below). An answer is
-- valid while every change to its days is visible in its snapshot: a change committed after the snapshot was taken, or
-- still running, makes it stale, however late its data arrives. Nothing is ever updated in place here, so writers of
-- different clusters never wait for each other on a row of these tables.
CREATE TABLE ledger.book_change (
    -- the UTC days the statement's rows touched; unbounded above for a segment still held
    days daterange NOT NULL,
    -- the writing transaction (the top-level one, also inside a savepoint)
    xid  xid8      NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX book_change_xid ON ledger.book_change (xid);

-- The oldest running transaction, sampled at each prune (DayBooks.prune): a change older than a sample taken long
-- enough ago is visible to every snapshot an answer can still be computed in, and can go.
CREATE TABLE ledger.book_horizon (
    at   timestamptz PRIMARY KEY,
    oldest xid8        NOT NULL
);

CREATE TABLE ledger.day_answer (
    -- what was asked: the report ('gpu-hours') and its shape (dimensions, tenant)
    kind      text         NOT NULL,
    shape     text         NOT NULL,
    -- the day, between two midnights of the report's time zone
    day_start timestamptz  NOT NULL,
    day_end   timestamptz  NOT NULL,
    -- the UTC days of facts the answer read
    days      daterange    NOT NULL,
    snapshot  pg_snapshot  NOT NULL,
    stored_at timestamptz  NOT NULL DEFAULT now(),
    rows      jsonb        NOT NULL,
    PRIMARY KEY (kind, shape, day_start, day_end)
);

-- Allocation segments touch every day from their start to their end (the future, while held).
CREATE FUNCTION ledger.book_segment_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger.book_change (days)
    SELECT unnest(range_agg(daterange((seg_start AT TIME ZONE 'UTC')::date,
                                      (seg_end AT TIME ZONE 'UTC')::date, '[]')))
    FROM changed_rows;
    RETURN NULL;
END $$;

-- A minute's or an hour's usage row touches its day.
CREATE FUNCTION ledger.book_minute_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger.book_change (days)
    SELECT unnest(range_agg(daterange((minute AT TIME ZONE 'UTC')::date, (minute AT TIME ZONE 'UTC')::date, '[]')))
    FROM changed_rows;
    RETURN NULL;
END $$;

CREATE FUNCTION ledger.book_hour_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger.book_change (days)
    SELECT unnest(range_agg(daterange((hour AT TIME ZONE 'UTC')::date, (hour AT TIME ZONE 'UTC')::date, '[]')))
    FROM changed_rows;
    RETURN NULL;
END $$;

-- A table emptied whole touches every day.
CREATE FUNCTION ledger.book_all_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger.book_change (days) VALUES (daterange(NULL, NULL));
    RETURN NULL;
END $$;

-- The triggers of one table: its inserted, deleted and updated rows (before and after) touch the days its function
-- reads off them, and emptying it touches every day.
CREATE PROCEDURE ledger.book_triggers(tbl text, days_function text) LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('CREATE TRIGGER book_inserted AFTER INSERT ON ledger.%I REFERENCING NEW TABLE AS changed_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION ledger.%I()', tbl, days_function);
    EXECUTE format('CREATE TRIGGER book_deleted AFTER DELETE ON ledger.%I REFERENCING OLD TABLE AS changed_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION ledger.%I()', tbl, days_function);
    EXECUTE format('CREATE TRIGGER book_updated_from AFTER UPDATE ON ledger.%I REFERENCING OLD TABLE AS changed_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION ledger.%I()', tbl, days_function);
    EXECUTE format('CREATE TRIGGER book_updated_to AFTER UPDATE ON ledger.%I REFERENCING NEW TABLE AS changed_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION ledger.%I()', tbl, days_function);
    EXECUTE format('CREATE TRIGGER book_truncated AFTER TRUNCATE ON ledger.%I '
                   'FOR EACH STATEMENT EXECUTE FUNCTION ledger.book_all_days()', tbl);
END $$;

CALL ledger.book_triggers('allocation_segment', 'book_segment_days');
CALL ledger.book_triggers('usage_minute', 'book_minute_days');
CALL ledger.book_triggers('usage_hour', 'book_hour_days');
