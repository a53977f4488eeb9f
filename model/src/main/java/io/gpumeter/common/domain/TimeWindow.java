package io.gpumeter.common.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/** A half-open interval of time {@code [start, end)}; an empty one (start equal to end) contains nothing. */
public record TimeWindow(Instant start, Instant end) {

    public TimeWindow {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        if (end.isBefore(start)) {
            throw new IllegalArgumentException("window end " + end + " is before its start " + start);
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
