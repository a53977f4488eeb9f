package io.gpumeter.ledger.governance.repository;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Function;

/** Column arrays for unnest() inserts, and instants in and out. */
final class Sql {

    private Sql() {
    }

    static <T> String[] strings(List<T> items, Function<T, String> field) {
        return items.stream().map(field).toArray(String[]::new);
    }

    static <T> OffsetDateTime[] times(List<T> items, Function<T, Instant> field) {
        return items.stream().map(i -> offset(field.apply(i))).toArray(OffsetDateTime[]::new);
    }

    static OffsetDateTime offset(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
