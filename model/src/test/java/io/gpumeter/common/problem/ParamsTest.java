package io.gpumeter.common.problem;

import io.gpumeter.common.domain.TimeWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParamsTest {

    @Test
    void aFlagIsTrueOrFalseInEitherCaseAndFalseWhenAbsent() {
        assertTrue(Params.flag("open", "true"));
        assertTrue(Params.flag("open", " True "));
        assertFalse(Params.flag("open", "FALSE"));
        assertFalse(Params.flag("open", null));
        assertFalse(Params.flag("open", ""));
        InvalidInput bad = assertThrows(InvalidInput.class, () -> Params.flag("open", "1"));
        assertEquals("open", bad.field());
        assertEquals("open must be true or false, got '1'", bad.getMessage());
    }

    @Test
    void anOptionalInstantIsNullWhenAbsentAndStrictWhenGiven() {
        assertNull(Params.instantOrNull("from", null));
        assertNull(Params.instantOrNull("from", " "));
        assertEquals(Instant.parse("2026-05-01T00:00:00Z"), Params.instantOrNull("from", "2026-05-01T02:00:00+02:00"));
        assertEquals("from", assertThrows(InvalidInput.class, () -> Params.instantOrNull("from", "yesterday")).field());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "RFC 3339, Z              | 2026-11-30T12:00:00Z      | 2026-11-30T12:00:00Z",
            "RFC 3339, an offset      | 2026-11-30T13:30:00+01:00 | 2026-11-30T12:30:00Z",
            "a form's minute, in UTC  | 2026-11-30T12:00          | 2026-11-30T12:00:00Z",
            "blanks around            | ' 2026-11-30T12:00 '      | 2026-11-30T12:00:00Z",
    })
    void aPagesInstantIsRfc3339OrAFormsMinuteInUtc(String name, String value, String expected) {
        assertEquals(Instant.parse(expected), Params.formInstant("at", value));
    }

    @Test
    void aPagesUnreadableInstantNamesItsField() {
        InvalidInput bad = assertThrows(InvalidInput.class, () -> Params.formInstant("at", "yesterday"));
        assertEquals("at", bad.field());
        assertEquals("at must be a time such as 2026-11-30T12:00:00Z, got 'yesterday'", bad.getMessage());
        assertEquals("to", assertThrows(InvalidInput.class, () -> Params.formInstant("to", null)).field());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "a day              | 2026-11-30   | 2026-11-30 | -",
            "blanks around      | ' 2026-02-28 ' | 2026-02-28 | -",
            "no such day        | 2026-02-30   | -          | from must be a date written YYYY-MM-DD, got '2026-02-30'",
            "a month            | 2026-11      | -          | from must be a date written YYYY-MM-DD, got '2026-11'",
            "missing            | -            | -          | from must be a date written YYYY-MM-DD, got nothing",
    })
    void aDayIsWrittenYyyyMmDd(String name, String value, String expected, String detail) {
        if (expected != null) {
            assertEquals(java.time.LocalDate.parse(expected), Params.day("from", value));
        } else {
            InvalidInput bad = assertThrows(InvalidInput.class, () -> Params.day("from", value));
            assertEquals("from", bad.field());
            assertEquals(detail, bad.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "a month            | 2026-03      | 2026-03 | -",
            "a one-digit month  | 2026-3       | -       | month must be a calendar month written YYYY-MM (e.g. 2026-03), got '2026-3'",
            "month 13           | 2026-13      | -       | month must be a calendar month written YYYY-MM (e.g. 2026-03), got '2026-13'",
            "a day              | 2026-03-01   | -       | month must be a calendar month written YYYY-MM (e.g. 2026-03), got '2026-03-01'",
            "missing            | -            | -       | month must be a calendar month written YYYY-MM (e.g. 2026-03), got nothing",
    })
    void aMonthIsWrittenYyyyMm(String name, String value, String expected, String detail) {
        if (expected != null) {
            assertEquals(java.time.YearMonth.parse(expected), Params.month("month", value));
        } else {
            InvalidInput bad = assertThrows(InvalidInput.class, () -> Params.month("month", value));
            assertEquals("month", bad.field());
            assertEquals(detail, bad.getMessage());
        }
    }

    enum Speed {
        FAST, SLOW_MOTION;

        String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "an hour                | 2026-05-01T00:00:00Z      | 2026-05-01T01:00:00Z      | 2026-05-01T00:00:00Z | 2026-05-01T01:00:00Z",
            "offsets read as UTC    | 2026-05-01T02:00:00+02:00 | 2026-05-01T03:00:00+02:00 | 2026-05-01T00:00:00Z | 2026-05-01T01:00:00Z",
            "blanks around          | ' 2026-05-01T00:00:00Z '  | 2026-05-01T00:00:01Z      | 2026-05-01T00:00:00Z | 2026-05-01T00:00:01Z",
    })
    void aWindowIsReadFromTwoTimestamps(String name, String from, String to, String start, String end) {
        assertEquals(new TimeWindow(Instant.parse(start), Instant.parse(end)), Params.window(from, to));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "from missing      | -                    | 2026-05-01T01:00:00Z | from | from is required (an RFC 3339 timestamp such as 2026-05-01T00:00:00Z)",
            "to missing        | 2026-05-01T00:00:00Z | -                    | to   | to is required (an RFC 3339 timestamp such as 2026-05-01T00:00:00Z)",
            "to blank          | 2026-05-01T00:00:00Z | ' '                  | to   | to is required (an RFC 3339 timestamp such as 2026-05-01T00:00:00Z)",
            "from unparsable   | yesterday            | 2026-05-01T01:00:00Z | from | from must be an RFC 3339 timestamp such as 2026-05-01T00:00:00Z, got 'yesterday'",
            "to without offset | 2026-05-01T00:00:00Z | 2026-05-01T01:00:00  | to   | to must be an RFC 3339 timestamp such as 2026-05-01T00:00:00Z, got '2026-05-01T01:00:00'",
            "both bad          | soon                 | later                | from | from must be an RFC 3339 timestamp such as 2026-05-01T00:00:00Z, got 'soon'",
            "equal             | 2026-05-01T00:00:00Z | 2026-05-01T00:00:00Z | to   | to must be after from",
            "equal in offsets  | 2026-05-01T02:00:00+02:00 | 2026-05-01T00:00:00Z | to | to must be after from",
            "reversed          | 2026-05-01T01:00:00Z | 2026-05-01T00:00:00Z | to   | to must be after from",
    })
    void aBadWindowIsA400NamingTheField(String name, String from, String to, String field, String detail) {
        InvalidInput bad = assertThrows(InvalidInput.class, () -> Params.window(from, to));
        assertEquals(field, bad.field());
        assertEquals(detail, bad.getMessage());
    }

    @Test
    void aWindowMaySpanAtMostTheLongestAllowed() {
        Instant t0 = Instant.parse("2026-05-01T00:00:00Z");
        assertEquals(Duration.ofDays(7), Params.window(t0, t0.plus(Duration.ofDays(7)), Duration.ofDays(7)).duration());
        InvalidInput tooLong = assertThrows(InvalidInput.class,
                () -> Params.window(t0, t0.plus(Duration.ofDays(7)).plusSeconds(1), Duration.ofDays(7)));
        assertEquals("to", tooLong.field());
        assertEquals("a window may span at most 7 days", tooLong.getMessage());
        assertEquals("to must be after from",
                assertThrows(InvalidInput.class, () -> Params.window(t0, t0, Duration.ofDays(7))).getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "exact              | fleet     | fleet",
            "blanks around      | ' pool '  | pool",
    })
    void aValueOfAClosedSetIsMatchedExactly(String name, String value, String expected) {
        assertEquals(expected, Params.oneOf("groupBy", value, "pool", "fleet"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "missing        | -         | groupBy must be one of pool, fleet, got nothing",
            "empty          | ''        | groupBy must be one of pool, fleet, got ''",
            "unknown        | node      | groupBy must be one of pool, fleet, got 'node'",
            "wrong case     | Fleet     | groupBy must be one of pool, fleet, got 'Fleet'",
            "a prefix       | flee      | groupBy must be one of pool, fleet, got 'flee'",
            "two at once    | pool,fleet | groupBy must be one of pool, fleet, got 'pool,fleet'",
    })
    void aValueOutsideAClosedSetIsA400NamingTheAcceptedValues(String name, String value, String detail) {
        InvalidInput bad = assertThrows(InvalidInput.class, () -> Params.oneOf("groupBy", value, "pool", "fleet"));
        assertEquals("groupBy", bad.field());
        assertEquals(detail, bad.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "by name               | FAST          | FAST        | -",
            "by name, blanks       | ' FAST '      | FAST        | -",
            "wrong case            | fast          | -           | speed must be one of FAST, SLOW_MOTION, got 'fast'",
            "unknown               | WARP          | -           | speed must be one of FAST, SLOW_MOTION, got 'WARP'",
            "missing               | -             | -           | speed must be one of FAST, SLOW_MOTION, got nothing",
    })
    void anEnumIsReadByItsExactName(String name, String value, String expected, String detail) {
        if (expected != null) {
            assertEquals(Speed.valueOf(expected), Params.oneOf("speed", value, Speed.class));
        } else {
            InvalidInput bad = assertThrows(InvalidInput.class, () -> Params.oneOf("speed", value, Speed.class));
            assertEquals("speed", bad.field());
            assertEquals(detail, bad.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "exact label           | slow-motion   | true  | SLOW_MOTION | -",
            "wrong case, strict    | Slow-Motion   | true  | -           | speed must be one of fast, slow-motion, got 'Slow-Motion'",
            "wrong case, lenient   | Slow-Motion   | false | SLOW_MOTION | -",
            "the name, not a label | SLOW_MOTION   | false | -           | speed must be one of fast, slow-motion, got 'SLOW_MOTION'",
            "unknown, lenient      | warp          | false | -           | speed must be one of fast, slow-motion, got 'warp'",
            "blank, lenient        | ' '           | false | -           | speed must be one of fast, slow-motion, got ' '",
    })
    void anEnumIsReadByItsLabel(String name, String value, boolean strict, String expected, String detail) {
        if (expected != null) {
            assertEquals(Speed.valueOf(expected), byLabel(strict, value));
        } else {
            InvalidInput bad = assertThrows(InvalidInput.class, () -> byLabel(strict, value));
            assertEquals("speed", bad.field());
            assertEquals(detail, bad.getMessage());
        }
    }

    private static Speed byLabel(boolean strict, String value) {
        return strict ? Params.oneOf("speed", value, Speed.values(), Speed::label)
                : Params.oneOfIgnoringCase("speed", value, Speed.values(), Speed::label);
    }
}
