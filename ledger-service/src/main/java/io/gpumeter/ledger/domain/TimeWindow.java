package io.gpumeter.ledger.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/** A half-open interval of time [start, end). */
public record TimeWindow(Instant start, Instant end) {

    public TimeWindow {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        if (end.isBefore(start)) {
            throw new IllegalArgumentException("window end " + end + " is before its start " + start);
        }
    }

    public boolean contains(Instant t) {
        return !t.isBefore(start) && t.isBefore(end);
    }

    public Duration duration() {
        return Duration.between(start, end);
    }
}
