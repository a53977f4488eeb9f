package io.gpumeter.billing.domain;

import io.gpumeter.common.problem.Params;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The parts a month's cost is drawn in: its local days, its ISO weeks (Monday first, cut at the month's edges) or
 * the month whole. Labels are the ledger's for the same buckets ({@code 2026-11-03}, {@code 2026-W45},
 * {@code 2026-11}), so its GPU-hours per bucket land in the matching period.
 */
public enum TimeBucket {
    DAY, WEEK, MONTH;

    /** The zone's IANA name as the ledger takes it; the JDK's UTC ("Z") as "UTC". */
    public static String zoneName(ZoneId zone) {
        return zone.normalized().equals(ZoneOffset.UTC) ? "UTC" : zone.getId();
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws io.gpumeter.common.problem.InvalidInput naming day, week and month */
    public static TimeBucket parse(String text) {
        return Params.oneOfIgnoringCase("bucket", text == null ? "day" : text, values(), TimeBucket::label);
    }

    /** The month's buckets in time order, each between local midnights of the month's zone, clipped to the month. */
    public List<BillingPeriod> of(BillingPeriod month) {
        List<BillingPeriod> out = new ArrayList<>();
        LocalDate first = month.start().toLocalDate();
        LocalDate end = month.end().toLocalDate();
        LocalDate day = switch (this) {
            case DAY -> first;
            case WEEK -> first.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case MONTH -> first.withDayOfMonth(1);
        };
        while (day.isBefore(end)) {
            LocalDate next = switch (this) {
                case DAY -> day.plusDays(1);
                case WEEK -> day.plusWeeks(1);
                case MONTH -> day.plusMonths(1);
            };
            ZonedDateTime start = day.isBefore(first) ? month.start() : day.atStartOfDay(month.start().getZone());
            ZonedDateTime stop = next.isAfter(end) ? month.end() : next.atStartOfDay(month.start().getZone());
            String label = switch (this) {
                case DAY -> day.toString();
                case WEEK -> BillingPeriod.ofWeek(day, month.start().getZone()).label();
                case MONTH -> YearMonth.from(day).toString();
            };
            out.add(new BillingPeriod(label, start, stop));
            day = next;
        }
        return out;
    }
}
