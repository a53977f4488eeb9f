package io.gpumeter.ledger.governance.repository;

import java.time.Instant;
import java.time.OffsetDateTime;
import io.gpumeter.ledger.repository.Columns;
import java.util.List;
import java.util.function.Function;

/** Column arrays for unnest() inserts, and instants in and out. */
final class Sql {

    private Sql() {
    }

    static <T> String[] strings(List<T> items, Function<T, String> field) {
        return Columns.strings(items, field);
    }

    static <T> OffsetDateTime[] times(List<T> items, Function<T, Instant> field) {
        return Columns.times(items, field);
    }

    static OffsetDateTime offset(Instant instant) {
        return Columns.offset(instant);
    }

    static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
