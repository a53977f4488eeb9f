package io.gpumeter.collector.kubernetes;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Kubernetes Time and MicroTime values (RFC 3339). */
final class Timestamps {

    private Timestamps() {
    }

    /** Null for an absent value; a value that is not RFC 3339 makes the object skipped, naming the field. */
    static Instant parse(String value, String field) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value.trim()).toInstant();
        } catch (DateTimeParseException e) {
            throw new Skip("bad timestamp in " + field);
        }
    }
}
