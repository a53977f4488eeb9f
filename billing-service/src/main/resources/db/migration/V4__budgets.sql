-- A standing monthly budget per tenant, in the service's currency; the forecast compares each month against it.
CREATE TABLE budget (
    tenant         text        PRIMARY KEY,
    monthly_amount numeric     NOT NULL CHECK (monthly_amount >= 0),
    currency       char(3)     NOT NULL,
    updated_at     timestamptz NOT NULL
);
