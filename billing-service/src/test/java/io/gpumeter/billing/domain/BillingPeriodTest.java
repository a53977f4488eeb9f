package io.gpumeter.billing.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BillingPeriodTest {

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "first month  | 2026-01 | 2026-01",
            "last month   | 2026-12 | 2026-12",
            "leap Feb     | 2028-02 | 2028-02",
    })
    void parsesMonths(String caseName, String text, String expected) {
        assertEquals(YearMonth.parse(expected), BillingPeriod.parseMonth(text));
    }

    @ParameterizedTest(name = "{0}: [{1}]")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "month 13          | 2026-13",
            "month 00          | 2026-00",
            "one-digit month   | 2026-1",
            "two-digit year    | 26-03",
            "a date            | 2026-03-01",
            "slash             | 2026/03",
            "words             | march",
            "padding           | ' 2026-03'",
            "empty             | ''",
            "missing           | NULL",
            "full-width digits | ２０２６-０３",
    })
    void rejectsOtherMonths(String caseName, String text) {
        var e = assertThrows(IllegalArgumentException.class, () -> BillingPeriod.parseMonth(text));
        assertTrue(e.getMessage().startsWith("month must be"), e.getMessage());
    }

    @ParameterizedTest(name = "{0} in {1}")
    @CsvSource(delimiter = '|', value = {
            // month   | zone             | start (instant)        | end (instant)          | printed start             | hours
            "2026-03   | UTC              | 2026-03-01T00:00:00Z   | 2026-04-01T00:00:00Z   | 2026-03-01T00:00:00Z      | 744",
            "2026-02   | UTC              | 2026-02-01T00:00:00Z   | 2026-03-01T00:00:00Z   | 2026-02-01T00:00:00Z      | 672",
            "2028-02   | UTC              | 2028-02-01T00:00:00Z   | 2028-03-01T00:00:00Z   | 2028-02-01T00:00:00Z      | 696",
            "2026-12   | UTC              | 2026-12-01T00:00:00Z   | 2027-01-01T00:00:00Z   | 2026-12-01T00:00:00Z      | 744",
            // Berlin: CET (+01:00) on 1 March, CEST from 29 March; the month is one hour short.
            "2026-03   | Europe/Berlin    | 2026-02-28T23:00:00Z   | 2026-03-31T22:00:00Z   | 2026-03-01T00:00:00+01:00 | 743",
            "2026-10   | Europe/Berlin    | 2026-09-30T22:00:00Z   | 2026-10-31T23:00:00Z   | 2026-10-01T00:00:00+02:00 | 745",
            "2026-07   | America/New_York | 2026-07-01T04:00:00Z   | 2026-08-01T04:00:00Z   | 2026-07-01T00:00:00-04:00 | 744",
            "2026-01   | Asia/Kolkata     | 2025-12-31T18:30:00Z   | 2026-01-31T18:30:00Z   | 2026-01-01T00:00:00+05:30 | 744",
    })
    void monthsAreLocalMidnights(String month, String zone, String start, String end, String printed, long hours) {
        BillingPeriod p = BillingPeriod.of(YearMonth.parse(month), ZoneId.of(zone));
        assertEquals(Instant.parse(start), p.startInstant());
        assertEquals(Instant.parse(end), p.endInstant());
        assertEquals(printed, p.startText());
        assertEquals(Duration.ofHours(hours), p.duration());
    }

    @Test
    void aZoneWhoseClocksSkipMidnightStartsAtTheFirstValidInstant() {
        // Paraguay went from 00:00 -04:00 straight to 01:00 -03:00 on 1 October 2023: no local midnight that day.
        ZoneId asuncion = ZoneId.of("America/Asuncion");
        BillingPeriod october = BillingPeriod.of(YearMonth.of(2023, 10), asuncion);
        assertEquals(Instant.parse("2023-10-01T04:00:00Z"), october.startInstant());
        assertEquals("2023-10-01T01:00:00-03:00", october.startText());
        BillingPeriod september = BillingPeriod.of(YearMonth.of(2023, 9), asuncion);
        assertEquals(october.startInstant(), september.endInstant(), "months tile without gap or overlap");
        assertEquals(Duration.ofDays(30), september.duration());
    }

    @Test
    void theIntervalIsHalfOpen() {
        BillingPeriod march = BillingPeriod.of(YearMonth.of(2026, 3), ZoneOffset.UTC);
        assertTrue(march.contains(Instant.parse("2026-03-01T00:00:00Z")));
        assertTrue(march.contains(Instant.parse("2026-03-31T23:59:59.999Z")));
        assertFalse(march.contains(Instant.parse("2026-04-01T00:00:00Z")));
        assertFalse(march.contains(Instant.parse("2026-02-28T23:59:59Z")));
    }

    @ParameterizedTest(name = "{0} begins on {1}")
    @CsvSource({
            "2026-W10, 2026-03-02",
            // 1 January 2026 is a Thursday, so week 1 starts in December and 2026 has 53 weeks.
            "2026-W01, 2025-12-29",
            "2026-W53, 2026-12-28",
            // 2020 began on a Wednesday and was a leap year: 53 weeks too.
            "2020-W53, 2020-12-28",
            "2027-W52, 2027-12-27",
            // 1 January 2027 is a Friday: it belongs to 2026-W53, and 2027-W01 begins on 4 January.
            "2027-W01, 2027-01-04",
    })
    void parsesIsoWeeks(String text, String monday) {
        assertEquals(LocalDate.parse(monday), BillingPeriod.parseWeek(text));
        assertEquals(text, BillingPeriod.ofWeek(LocalDate.parse(monday), ZoneOffset.UTC).label());
    }

    @ParameterizedTest(name = "{0}: [{1}]")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "week 0             | 2026-W00",
            "week 54            | 2026-W54",
            "53 in a 52-week year | 2027-W53",
            "lower-case w       | 2026-w10",
            "no dash            | 2026W10",
            "one-digit week     | 2026-W1",
            "week day           | 2026-W10-1",
            "a month            | 2026-03",
            "empty              | ''",
            "missing            | NULL",
    })
    void rejectsOtherWeeks(String caseName, String text) {
        var e = assertThrows(IllegalArgumentException.class, () -> BillingPeriod.parseWeek(text));
        assertTrue(e.getMessage().startsWith("week must be"), e.getMessage());
    }

    @Test
    void aWeekRunsMondayToMondayInTheZone() {
        // Berlin leaves CET for CEST on Sunday 29 March 2026: that week is 167 hours long.
        BillingPeriod w13 = BillingPeriod.ofWeek(LocalDate.of(2026, 3, 23), ZoneId.of("Europe/Berlin"));
        assertEquals(Instant.parse("2026-03-22T23:00:00Z"), w13.startInstant());
        assertEquals(Instant.parse("2026-03-29T22:00:00Z"), w13.endInstant());
        assertEquals(Duration.ofHours(167), w13.duration());
        assertEquals("2026-W13", w13.label());
        assertThrows(IllegalArgumentException.class,
                () -> BillingPeriod.ofWeek(LocalDate.of(2026, 3, 24), ZoneOffset.UTC));
    }
}
