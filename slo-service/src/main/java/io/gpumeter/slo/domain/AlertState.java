package io.gpumeter.slo.domain;

import java.math.BigDecimal;

/**
 * One burn-rate alert evaluated: both windows, the share of a budget of the SLO's window that burning at
 * {@code factor} for the long window consumes, and whether it fires.
 */
public record AlertState(BurnAlert alert, BigDecimal budgetConsumed, WindowBurn longWindow, WindowBurn shortWindow,
                         boolean firing) {
}
