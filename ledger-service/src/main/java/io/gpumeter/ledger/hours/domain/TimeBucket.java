package io.gpumeter.ledger.hours.domain;

import io.gpumeter.common.domain.TimeWindow;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;

/**
 * One day, ISO week (Monday first) or month of a time zone, clipped to a report window: {@code [start, end)}. The
 * seams are the zone's local midnights, worked out here with the JDK's zone rules, so a day with a clock change is
 * 23 or 25 hours long; the SQL only clips to the instants it is given.
 *
 * @param label {@code 2026-11-03}, {@code 2026-W45} (week-based year) or {@code 2026-11}
 */
public record TimeBucket(String label, Instant start, Instant end) {

    /** The buckets of {@code unit} (DAY, WEEK or MONTH) in {@code zone} that overlap the window, clipped to it. */
    public static List<TimeBucket> over(TimeWindow window, GroupDimension unit, ZoneId zone) {
        List<TimeBucket> out = new ArrayList<>();
        LocalDate first = first(window.start().atZone(zone).toLocalDate(), unit);
        for (LocalDate day = first; ; day = next(day, unit)) {
            Instant start = day.atStartOfDay(zone).toInstant();
            if (!start.isBefore(window.end())) {
                return out;
            }
            Instant end = next(day, unit).atStartOfDay(zone).toInstant();
            Instant clippedStart = start.isBefore(window.start()) ? window.start() : start;
            Instant clippedEnd = end.isAfter(window.end()) ? window.end() : end;
            if (clippedStart.isBefore(clippedEnd)) {
                out.add(new TimeBucket(label(day, unit), clippedStart, clippedEnd));
            }
        }
    }

    private static LocalDate first(LocalDate day, GroupDimension unit) {
        return switch (unit) {
            case DAY -> day;
            case WEEK -> day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case MONTH -> day.withDayOfMonth(1);
            default -> throw new IllegalArgumentException(unit.label() + " is not a time bucket");
        };
    }

    private static LocalDate next(LocalDate day, GroupDimension unit) {
        return switch (unit) {
            case DAY -> day.plusDays(1);
            case WEEK -> day.plusWeeks(1);
            default -> day.plusMonths(1);
        };
    }

    private static String label(LocalDate day, GroupDimension unit) {
        return switch (unit) {
            case DAY -> day.toString();
            case WEEK -> String.format("%d-W%02d", day.get(IsoFields.WEEK_BASED_YEAR), day.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            default -> day.toString().substring(0, 7);
        };
    }
}
