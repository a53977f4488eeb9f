package io.gpumeter.common.problem;

import io.gpumeter.common.domain.TimeWindow;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Parses query parameters strictly, turning bad input into a 400 problem that names the parameter. The closed-set
 * readers ({@code oneOf}) throw {@link InvalidInput}, an {@link IllegalArgumentException}, so that domain parsers
 * and configuration readers can use them as well.
 */
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

    /** The window [from, to) of two required RFC 3339 timestamps, read as {@link #instant} does; to must be after from. */
    public static TimeWindow window(String from, String to) {
        return window(instant("from", from), instant("to", to));
    }

    /** The window [from, to) of two instants already read; to must be after from. */
    public static TimeWindow window(Instant from, Instant to) {
        if (!to.isAfter(from)) {
            throw ApiProblem.badRequest("to", "to must be after from");
        }
        return new TimeWindow(from, to);
    }

    /** Like {@link #window(Instant, Instant)}, and spanning at most {@code longest} (a whole number of days). */
    public static TimeWindow window(Instant from, Instant to, Duration longest) {
        TimeWindow window = window(from, to);
        if (window.duration().compareTo(longest) > 0) {
            throw ApiProblem.badRequest("to", "a window may span at most " + longest.toDays() + " days");
        }
        return window;
    }

    /** One of the allowed values, matched exactly (surrounding blanks aside). */
    public static String oneOf(String field, String value, String... allowed) {
        return oneOf(field, value, allowed, Function.identity());
    }

    /** The constant of {@code type} named exactly (surrounding blanks aside). */
    public static <E extends Enum<E>> E oneOf(String field, String value, Class<E> type) {
        return oneOf(field, value, type.getEnumConstants(), Enum::name);
    }

    /** The member whose label is the value exactly (surrounding blanks aside). */
    public static <T> T oneOf(String field, String value, T[] members, Function<? super T, String> label) {
        return match(field, value, members, label, String::equals);
    }

    /** The member whose label is the value in any case (surrounding blanks aside). */
    public static <T> T oneOfIgnoringCase(String field, String value, T[] members, Function<? super T, String> label) {
        return match(field, value, members, label, String::equalsIgnoreCase);
    }

    /** The refusal of a value outside a closed set, for parsers that match in their own way. */
    public static InvalidInput notOneOf(String field, String value, Stream<String> accepted) {
        return new InvalidInput(field, field + " must be one of " + accepted.collect(Collectors.joining(", "))
                + ", got " + (value == null ? "nothing" : "'" + value + "'"));
    }

    private static <T> T match(String field, String value, T[] members, Function<? super T, String> label,
                               BiPredicate<String, String> same) {
        if (value != null) {
            String wanted = value.strip();
            for (T member : members) {
                if (same.test(label.apply(member), wanted)) {
                    return member;
                }
            }
        }
        throw notOneOf(field, value, Arrays.stream(members).map(label));
    }
}
