package io.gpumeter.ledger.governance.repository;

import java.time.Instant;
import java.time.OffsetDateTime;

/** Instants out of the rows; parameter columns are {@link io.gpumeter.ledger.repository.Columns}'. */
public final class Sql {

    private Sql() {
    }

    public static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
