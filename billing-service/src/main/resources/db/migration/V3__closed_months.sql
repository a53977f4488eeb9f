-- Closed months: the bill of a month frozen at close. A closed month's report is rendered from these rows
-- alone; later corrections in the ledger become adjustment lines of the next open month, never edits here.
CREATE TABLE closed_month (
    month                 text        PRIMARY KEY CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
    period_start          timestamptz NOT NULL,
    period_end            timestamptz NOT NULL,
    -- The zone whose local midnights bounded the month; printed offsets are derived from it.
    zone                  text        NOT NULL,
    currency              char(3)     NOT NULL,
    normalization_policy  text        NOT NULL,
    normalization_version text        NOT NULL,
    closed_at             timestamptz NOT NULL,
    CHECK (period_end > period_start)
);

-- The rate card in force on each stretch of a closed month, copied: deleting or adding a stored card later
-- cannot reprice a closed month or the adjustments to it.
CREATE TABLE closed_stretch (
    month             text        NOT NULL REFERENCES closed_month,
    seq               int         NOT NULL CHECK (seq >= 0),
    stretch_start     timestamptz NOT NULL,
    stretch_end       timestamptz NOT NULL,
    rate_card_version text        NOT NULL,
    default_rate      numeric     NOT NULL CHECK (default_rate >= 0),
    -- Parallel arrays: models[i] costs rates[i] per normalized GPU-hour (exact numerics, no JSON floats).
    models            text[]      NOT NULL,
    rates             numeric[]   NOT NULL,
    PRIMARY KEY (month, seq),
    CHECK (stretch_end > stretch_start),
    CHECK (cardinality(models) = cardinality(rates))
);

-- The lines a closed month billed, as priced at close. line_type 'usage' lines are the month's own hours
-- (corrects = month); 'adjustment' lines correct the earlier closed month named in corrects and are priced
-- with that month's stretch stretch_seq.
CREATE TABLE closed_line (
    month               text    NOT NULL REFERENCES closed_month,
    line_type           text    NOT NULL CHECK (line_type IN ('usage', 'adjustment')),
    corrects            text    NOT NULL,
    stretch_seq         int     NOT NULL,
    tenant              text,
    team                text,
    project             text,
    namespace           text,
    model               text,
    allocated_gpu_hours numeric NOT NULL,
    used_gpu_hours      numeric NOT NULL,
    rate                numeric NOT NULL,
    allocated_cost      numeric NOT NULL,
    used_cost           numeric NOT NULL,
    FOREIGN KEY (corrects, stretch_seq) REFERENCES closed_stretch (month, seq),
    CHECK ((line_type = 'usage') = (corrects = month))
);
CREATE INDEX closed_line_month ON closed_line (month);
CREATE INDEX closed_line_corrects ON closed_line (corrects, stretch_seq);

-- The card-hours per GPU model the fleet could supply in each stretch of a closed month, as priced at close:
-- what a closed month's reconciliation (usage + unallocated = fleet capacity) is computed from.
CREATE TABLE closed_capacity (
    month       text    NOT NULL,
    stretch_seq int     NOT NULL,
    model       text,
    card_hours  numeric NOT NULL,
    rate        numeric NOT NULL,
    cost        numeric NOT NULL,
    FOREIGN KEY (month, stretch_seq) REFERENCES closed_stretch (month, seq)
);
CREATE INDEX closed_capacity_month ON closed_capacity (month);

-- Closed books are append-only.
CREATE FUNCTION closed_books_are_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'a closed month cannot be changed (% on %)', TG_OP, TG_TABLE_NAME;
END
$$;
CREATE TRIGGER closed_month_final BEFORE UPDATE OR DELETE ON closed_month
    FOR EACH ROW EXECUTE FUNCTION closed_books_are_final();
CREATE TRIGGER closed_stretch_final BEFORE UPDATE OR DELETE ON closed_stretch
    FOR EACH ROW EXECUTE FUNCTION closed_books_are_final();
CREATE TRIGGER closed_line_final BEFORE UPDATE OR DELETE ON closed_line
    FOR EACH ROW EXECUTE FUNCTION closed_books_are_final();
CREATE TRIGGER closed_capacity_final BEFORE UPDATE OR DELETE ON closed_capacity
    FOR EACH ROW EXECUTE FUNCTION closed_books_are_final();
