package io.gpumeter.billing.domain;

import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;

/**
 * A calendar month as the half-open interval [start, end) between two local midnights of one zone.
 */
public record BillingPeriod(YearMonth month, ZonedDateTime start, ZonedDateTime end) {

    private static final Pattern MONTH = Pattern.compile("\\d{4}-(0[1-9]|1[0-2])");
    /** RFC 3339 with whole seconds; 'Z' for UTC, e.g. 2026-03-01T00:00:00Z or 2026-03-01T00:00:00+01:00. */
    private static final DateTimeFormatter RFC_3339 = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX");

    public static BillingPeriod of(YearMonth month, ZoneId zone) {
        // atStartOfDay, not atTime(MIDNIGHT): in zones whose clocks skip midnight it picks the first valid instant.
        return new BillingPeriod(month, month.atDay(1).atStartOfDay(zone),
                month.plusMonths(1).atDay(1).atStartOfDay(zone));
    }

    /**
     * Reads exactly YYYY-MM with a two-digit month from 01 to 12.
     *
     * @throws IllegalArgumentException for anything else, including a missing value
     */
    public static YearMonth parseMonth(String text) {
        if (text == null || !MONTH.matcher(text).matches()) {
            throw new IllegalArgumentException("month must be a calendar month written YYYY-MM (e.g. 2026-03), got "
                    + (text == null ? "nothing" : "'" + text + "'"));
        }
        return YearMonth.parse(text);
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
