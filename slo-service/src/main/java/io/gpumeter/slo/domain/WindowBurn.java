package io.gpumeter.slo.domain;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Events in one trailing window and how fast they burn the error budget (1 = exactly at the budget's pace);
 * the burn rate is null when the window saw no events.
 */
public record WindowBurn(Duration window, long good, long total, BigDecimal burnRate) {

    public long bad() {
        return total - good;
    }
}
