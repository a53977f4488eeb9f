package io.gpumeter.slo.domain;

import java.time.Duration;
import java.time.Instant;

/** A half-open interval of time {@code [start, end)}. */
public record TimeWindow(Instant start, Instant end) {

    public TimeWindow {
        if (start == null || end == null || !start.isBefore(end)) {
            throw new IllegalArgumentException("a window needs start before end, got [" + start + ", " + end + ")");
        }
    }

    /** The window of the given length that ends at {@code end}. */
    public static TimeWindow ending(Instant end, Duration length) {
        return new TimeWindow(end.minus(length), end);
    }

    public boolean contains(Instant t) {
        return !t.isBefore(start) && t.isBefore(end);
    }

    public Duration duration() {
        return Duration.between(start, end);
    }
}
