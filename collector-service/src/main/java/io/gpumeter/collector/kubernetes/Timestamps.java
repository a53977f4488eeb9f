package io.gpumeter.collector.kubernetes;

import io.gpumeter.common.json.IsoInstants;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Kubernetes Time and MicroTime values (RFC 3339). */
public final class Timestamps {

    private Timestamps() {
    }

    /**
     * Null for an absent value; a value that is not RFC 3339 makes the object skipped, naming the field. The UTC form
     * the API server writes is read directly; any other offset by the general parser.
     */
    public static Instant parse(String value, String field) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String text = value.trim();
        Instant utc = IsoInstants.parseUtc(text);
        if (utc != null) {
            return utc;
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new Skip("bad timestamp in " + field);
        }
    }
}
