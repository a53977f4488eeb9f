package io.gpumeter.common.problem;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Parses query parameters strictly, turning bad input into a 400 problem that names the parameter. */
public final class Params {

    private Params() {
    }

    /** An optional filter parameter: absent and blank both mean "no filter". */
    public static String optional(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** A true/false switch (either case); absent or blank means false. */
    public static boolean flag(String field, String value) {
        String v = optional(value);
        if (v == null || v.equalsIgnoreCase("false")) {
            return false;
        }
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        throw ApiProblem.badRequest(field, field + " must be true or false, got '" + value + "'");
    }

    /** An RFC 3339 timestamp with an offset (e.g. 2026-05-01T00:00:00Z or 2026-05-01T02:00:00+02:00). */
    public static Instant instant(String field, String value) {
        if (value == null || value.isBlank()) {
            throw ApiProblem.badRequest(field, field + " is required (an RFC 3339 timestamp such as 2026-05-01T00:00:00Z)");
        }
        try {
            return OffsetDateTime.parse(value.trim()).toInstant();
        } catch (DateTimeParseException e) {
            throw ApiProblem.badRequest(field, field + " must be an RFC 3339 timestamp such as 2026-05-01T00:00:00Z, got '" + value + "'");
        }
    }

    /** Like {@link #instant} but a missing value means none (null). */
    public static Instant instantOrNull(String field, String value) {
        return value == null || value.isBlank() ? null : instant(field, value);
    }

    /** Like {@link #instant} but a missing value means the given default. */
    public static Instant instantOr(String field, String value, Instant fallback) {
        return value == null || value.isEmpty() ? fallback : instant(field, value);
    }
}
