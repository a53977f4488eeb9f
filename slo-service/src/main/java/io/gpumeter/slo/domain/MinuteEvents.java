package io.gpumeter.slo.domain;

import java.time.Instant;

/** Good and total events of an SLO in one minute. */
public record MinuteEvents(Instant minute, long good, long total) {

    public MinuteEvents {
        if (good < 0 || good > total) {
            throw new IllegalArgumentException("good events must be between 0 and total, got " + good + "/" + total);
        }
    }
}
