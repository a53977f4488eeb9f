package io.gpumeter.slo.domain;

import io.gpumeter.common.domain.TimeWindow;

import java.math.BigDecimal;
import java.util.List;

/**
 * Where an SLO stands at the end of its window.
 *
 * @param attainment      good / total events over the SLO window, null without events
 * @param budgetRemaining 1 - bad / (total x (1 - target)); negative once the budget is overspent
 */
public record SloStatus(TimeWindow window, long good, long total, BigDecimal attainment, BigDecimal allowedBad,
                        BigDecimal budgetRemaining, List<AlertState> alerts, State state) {

    /** PAGE when a page alert fires, else TICKET when the ticket alert fires, NO_DATA without events. */
    public enum State { OK, TICKET, PAGE, NO_DATA }

    public long bad() {
        return total - good;
    }
}
