package io.gpumeter.common.problem;

import io.gpumeter.common.domain.TimeWindow;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Parses parameters strictly, the services' query parameters and the console's addresses alike: every bad value is
 * an {@link InvalidInput} naming the parameter, which a service answers as a 400 problem and the console shows in
 * words. Being an {@link IllegalArgumentException}, it serves domain parsers and configuration readers as well.
 */
public final class Params {

    private static final Pattern MONTH = Pattern.compile("\\d{4}-(0[1-9]|1[0-2])");

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
        throw new InvalidInput(field, field + " must be true or false, got '" + value + "'");
    }

    /** An RFC 3339 timestamp with an offset (e.g. 2026-05-01T00:00:00Z or 2026-05-01T02:00:00+02:00). */
    public static Instant instant(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidInput(field, field + " is required (an RFC 3339 timestamp such as 2026-05-01T00:00:00Z)");
        }
        try {
            return OffsetDateTime.parse(value.trim()).toInstant();
        } catch (DateTimeParseException e) {
            throw new InvalidInput(field, field + " must be an RFC 3339 timestamp such as 2026-05-01T00:00:00Z, got '" + value + "'");
        }
    }

    /**
     * An instant as a page's address or form gives it: RFC 3339 as {@link #instant} reads it, or the minute a
     * browser's datetime-local field sends ({@code 2026-11-30T12:00}), read in UTC.
     */
    public static Instant formInstant(String field, String value) {
        String text = value == null ? "" : value.strip();
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException again) {
                throw new InvalidInput(field, field + " must be a time such as 2026-11-30T12:00:00Z, got '" + value + "'");
            }
        }
    }

    /** A calendar day written YYYY-MM-DD. */
    public static LocalDate day(String field, String value) {
        try {
            return LocalDate.parse(value == null ? "" : value.strip());
        } catch (DateTimeParseException e) {
            throw new InvalidInput(field, field + " must be a date written YYYY-MM-DD, got "
                    + (value == null ? "nothing" : "'" + value + "'"));
        }
    }

    /** Exactly YYYY-MM with a two-digit month from 01 to 12. */
    public static YearMonth month(String field, String value) {
        if (value == null || !MONTH.matcher(value).matches()) {
            throw new InvalidInput(field, field + " must be a calendar month written YYYY-MM (e.g. 2026-03), got "
                    + (value == null ? "nothing" : "'" + value + "'"));
        }
        return YearMonth.parse(value);
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
            throw new InvalidInput("to", "to must be after from");
        }
        return new TimeWindow(from, to);
    }

    /** Like {@link #window(Instant, Instant)}, and spanning at most {@code longest} (a whole number of days). */
    public static TimeWindow window(Instant from, Instant to, Duration longest) {
        TimeWindow window = window(from, to);
        if (window.duration().compareTo(longest) > 0) {
            throw new InvalidInput("to", "a window may span at most " + longest.toDays() + " days");
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
