package io.gpumeter.alert.repository;

import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;

/** Conversions between Java values and the reactive client's column types. */
final class Sql {

    private Sql() {
    }

    static OffsetDateTime ts(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    static Instant instant(Row row, String column) {
        OffsetDateTime t = row.getOffsetDateTime(column);
        return t == null ? null : t.toInstant();
    }

    static JsonObject json(Map<String, String> map) {
        return new JsonObject(new TreeMap<String, Object>(map));
    }

    static Map<String, String> strings(Row row, String column) {
        JsonObject json = row.getJsonObject(column);
        Map<String, String> out = new TreeMap<>();
        if (json != null) {
            json.forEach(e -> out.put(e.getKey(), e.getValue() == null ? null : String.valueOf(e.getValue())));
        }
        return out;
    }
}
