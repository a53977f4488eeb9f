package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * Card-hours of one GPU model the fleet could supply during one rate-card stretch of a period.
 *
 * @param stretch the stretch's index in its period's list of stretches
 */
public record CapacityLine(int stretch, String model, BigDecimal cardHours) {

    public CapacityLine {
        Objects.requireNonNull(cardHours, "cardHours");
    }
}
