package io.gpumeter.billing.domain;

import io.gpumeter.common.problem.Params;

import java.time.Duration;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A calendar month or ISO week as the half-open interval [start, end) between two local midnights of one zone;
 * the label (2026-03, 2026-W10) names it in file names.
 */
public record BillingPeriod(String label, ZonedDateTime start, ZonedDateTime end) {

    private static final Pattern WEEK = Pattern.compile("(\\d{4})-W(\\d{2})");
    /** RFC 3339 with whole seconds; 'Z' for UTC, e.g. 2026-03-01T00:00:00Z or 2026-03-01T00:00:00+01:00. */
    private static final DateTimeFormatter RFC_3339 = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX");

    public static BillingPeriod of(YearMonth month, ZoneId zone) {
        // atStartOfDay, not atTime(MIDNIGHT): in zones whose clocks skip midnight it picks the first valid instant.
        return new BillingPeriod(month.toString(), month.atDay(1).atStartOfDay(zone),
                month.plusMonths(1).atDay(1).atStartOfDay(zone));
    }

    /** The ISO week (Monday to Monday) that begins on {@code monday}. */
    public static BillingPeriod ofWeek(LocalDate monday, ZoneId zone) {
        if (monday.getDayOfWeek() != DayOfWeek.MONDAY) {
            throw new IllegalArgumentException("an ISO week begins on a Monday, not on " + monday);
        }
        String label = String.format("%04d-W%02d", monday.get(IsoFields.WEEK_BASED_YEAR),
                monday.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
        return new BillingPeriod(label, monday.atStartOfDay(zone), monday.plusWeeks(1).atStartOfDay(zone));
    }

    /**
     * Reads exactly YYYY-Www (ISO 8601 week date, week 01 to 52, or 53 in years that have it) and returns the
     * Monday it begins on.
     *
     * @throws IllegalArgumentException for anything else, including a missing value
     */
    public static LocalDate parseWeek(String text) {
        Matcher m = text == null ? null : WEEK.matcher(text);
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException("week must be an ISO week written YYYY-Www (e.g. 2026-W10), got "
                    + (text == null ? "nothing" : "'" + text + "'"));
        }
        int year = Integer.parseInt(m.group(1));
        int week = Integer.parseInt(m.group(2));
        // 4 January always lies in week 1 of its week-based year.
        LocalDate inWeekOne = LocalDate.of(year, 1, 4);
        long weeks = IsoFields.WEEK_OF_WEEK_BASED_YEAR.rangeRefinedBy(inWeekOne).getMaximum();
        if (week < 1 || week > weeks) {
            throw new IllegalArgumentException("week must be between " + year + "-W01 and " + year + "-W" + weeks
                    + ", got '" + text + "'");
        }
        return inWeekOne.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).plusWeeks(week - 1L);
    }

    /**
     * Reads exactly YYYY-MM with a two-digit month from 01 to 12.
     *
     * @throws IllegalArgumentException for anything else, including a missing value
     */
    public static YearMonth parseMonth(String text) {
        return Params.month("month", text);
    }

    public Instant startInstant() {
        return start.toInstant();
    }

    public Instant endInstant() {
        return end.toInstant();
    }

    public boolean contains(Instant t) {
        return !t.isBefore(startInstant()) && t.isBefore(endInstant());
    }

    public Duration duration() {
        return Duration.between(startInstant(), endInstant());
    }

    /** The start as printed on a report, with the zone's offset at that instant. */
    public String startText() {
        return RFC_3339.format(start);
    }

    /** The exclusive end as printed on a report. */
    public String endText() {
        return RFC_3339.format(end);
    }
}
