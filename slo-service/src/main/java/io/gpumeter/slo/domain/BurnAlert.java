package io.gpumeter.slo.domain;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

/**
 * A multi-window burn-rate alert: it fires when both windows burn the error budget faster than {@code factor}.
 */
public record BurnAlert(Severity severity, Duration longWindow, Duration shortWindow, BigDecimal factor) {

    public enum Severity { PAGE, TICKET }

    /** The SRE workbook's thresholds for a 30-day budget: 2%, 5% and 10% of it spent in the long window. */
    public static final List<BurnAlert> WORKBOOK = List.of(
            new BurnAlert(Severity.PAGE, Duration.ofHours(1), Duration.ofMinutes(5), new BigDecimal("14.4")),
            new BurnAlert(Severity.PAGE, Duration.ofHours(6), Duration.ofMinutes(30), new BigDecimal("6")),
            new BurnAlert(Severity.TICKET, Duration.ofDays(3), Duration.ofHours(6), BigDecimal.ONE));
}
