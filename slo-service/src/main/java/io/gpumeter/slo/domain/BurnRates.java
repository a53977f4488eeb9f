package io.gpumeter.slo.domain;

import io.gpumeter.common.domain.TimeWindow;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Attainment, error budget and multi-window multi-burn-rate alerts from per-minute good/total events.
 */
public final class BurnRates {

    /** Printed ratios carry six decimals; comparisons with thresholds are exact. */
    public static final int SCALE = 6;

    private BurnRates() {
    }

    /** bad / (total x budget): 1 spends exactly the budget over the SLO window; null without events. */
    public static BigDecimal burnRate(long good, long total, BigDecimal errorBudget) {
        if (total == 0) {
            return null;
        }
        return BigDecimal.valueOf(total - good)
                .divide(BigDecimal.valueOf(total).multiply(errorBudget), SCALE, RoundingMode.HALF_EVEN);
    }

    /** Strictly faster than {@code factor}, as the workbook's {@code >} comparison; never without events. */
    public static boolean burnsFaster(long good, long total, BigDecimal errorBudget, BigDecimal factor) {
        return total > 0 && BigDecimal.valueOf(total - good)
                .compareTo(factor.multiply(errorBudget).multiply(BigDecimal.valueOf(total))) > 0;
    }

    /** The share of the SLO window's budget that burning at {@code factor} for {@code alertWindow} consumes. */
    public static BigDecimal budgetConsumed(BigDecimal factor, Duration alertWindow, Duration sloWindow) {
        return factor.multiply(BigDecimal.valueOf(alertWindow.toSeconds()))
                .divide(BigDecimal.valueOf(sloWindow.toSeconds()), SCALE, RoundingMode.HALF_EVEN);
    }

    /** The events of the minutes that start inside the trailing window ending at {@code end}. */
    public static WindowBurn window(List<MinuteEvents> minutes, Instant end, Duration length, BigDecimal errorBudget) {
        TimeWindow w = TimeWindow.ending(end, length);
        long good = 0;
        long total = 0;
        for (MinuteEvents m : minutes) {
            if (w.contains(m.minute())) {
                good += m.good();
                total += m.total();
            }
        }
        return new WindowBurn(length, good, total, burnRate(good, total, errorBudget));
    }

    /**
     * The SLO's state at {@code end}: its window's attainment and budget, and each alert's two windows.
     *
     * @param minutes the SLO's events per minute; those outside the window are ignored
     */
    public static SloStatus evaluate(BigDecimal target, Duration sloWindow, List<BurnAlert> alerts,
                                     List<MinuteEvents> minutes, Instant end) {
        BigDecimal budget = BigDecimal.ONE.subtract(target);
        WindowBurn whole = window(minutes, end, sloWindow, budget);
        List<AlertState> states = new ArrayList<>();
        boolean page = false;
        boolean ticket = false;
        for (BurnAlert a : alerts) {
            WindowBurn longW = window(minutes, end, a.longWindow(), budget);
            WindowBurn shortW = window(minutes, end, a.shortWindow(), budget);
            boolean firing = burnsFaster(longW.good(), longW.total(), budget, a.factor())
                    && burnsFaster(shortW.good(), shortW.total(), budget, a.factor());
            states.add(new AlertState(a, budgetConsumed(a.factor(), a.longWindow(), sloWindow), longW, shortW, firing));
            page |= firing && a.severity() == BurnAlert.Severity.PAGE;
            ticket |= firing && a.severity() == BurnAlert.Severity.TICKET;
        }
        long good = whole.good();
        long total = whole.total();
        BigDecimal allowedBad = budget.multiply(BigDecimal.valueOf(total));
        BigDecimal attainment = total == 0 ? null
                : BigDecimal.valueOf(good).divide(BigDecimal.valueOf(total), SCALE, RoundingMode.HALF_EVEN);
        BigDecimal remaining = total == 0 ? BigDecimal.ONE.setScale(SCALE)
                : BigDecimal.ONE.subtract(BigDecimal.valueOf(total - good)
                        .divide(allowedBad, SCALE, RoundingMode.HALF_EVEN));
        SloStatus.State state = page ? SloStatus.State.PAGE : ticket ? SloStatus.State.TICKET
                : total == 0 ? SloStatus.State.NO_DATA : SloStatus.State.OK;
        return new SloStatus(TimeWindow.ending(end, sloWindow), good, total, attainment,
                allowedBad.stripTrailingZeros(), remaining, List.copyOf(states), state);
    }
}
