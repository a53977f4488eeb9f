package io.gpumeter.ledger.governance.repository;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Column arrays for unnest() inserts and JSON payloads in and out. */
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

    static String[] payloads(ObjectMapper json, List<?> facts) {
        return facts.stream().map(f -> {
            try {
                return json.writeValueAsString(f);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("fact cannot be serialised", e);
            }
        }).toArray(String[]::new);
    }

    static <T> List<T> decode(ObjectMapper json, RowSet<Row> rows, Class<T> type) {
        List<T> out = new ArrayList<>(rows.size());
        for (Row row : rows) {
            try {
                out.add(json.readValue(row.getString("p"), type));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("stored " + type.getSimpleName() + " is unreadable", e);
            }
        }
        return out;
    }
}
