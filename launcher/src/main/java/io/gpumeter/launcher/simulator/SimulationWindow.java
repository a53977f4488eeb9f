package io.gpumeter.launcher.simulator;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * The span a simulated history covers: at least ten days, ending at {@code end}, and always containing the first
 * instant of a month at least one day before {@code end}, so that monthly reports have a boundary to split at.
 *
 * @param monthBoundary the first instant (UTC) of the last month that starts inside the window
 */
public record SimulationWindow(Instant start, Instant end, Instant monthBoundary) {

    static final Duration MIN_SPAN = Duration.ofDays(10);
    static final Duration BEFORE_BOUNDARY = Duration.ofDays(5);

    public static SimulationWindow endingAt(Instant end) {
        Instant last = end.truncatedTo(ChronoUnit.SECONDS);
        LocalDate dayBefore = last.minus(Duration.ofDays(1)).atZone(ZoneOffset.UTC).toLocalDate();
        Instant boundary = dayBefore.withDayOfMonth(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        Instant start = boundary.minus(BEFORE_BOUNDARY);
        Instant tenDays = last.minus(MIN_SPAN);
        if (tenDays.isBefore(start)) {
            start = tenDays;
        }
        return new SimulationWindow(start, last, boundary);
    }

    /** The month that ends at the boundary: the window holds at least its last five days. */
    public YearMonth monthBeforeBoundary() {
        return YearMonth.from(monthBoundary.minusSeconds(1).atZone(ZoneOffset.UTC));
    }

    public Duration span() {
        return Duration.between(start, end);
    }

    public boolean contains(Instant at) {
        return !at.isBefore(start) && at.isBefore(end);
    }
}
