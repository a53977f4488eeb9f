package io.gpumeter.slo.capacity;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** How the plan prints its figures: shares to four places, cards to two, rates and hours to six. */
final class Shares {

    private Shares() {
    }

    static BigDecimal of(double share) {
        return round(share, 4);
    }

    static BigDecimal cards(double cards) {
        return round(cards, 2);
    }

    static BigDecimal figure(double value) {
        return round(value, 6);
    }

    static BigDecimal round(double value, int digits) {
        return BigDecimal.valueOf(value).setScale(digits, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }
}
