package io.gpumeter.ledger.hours.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * PostgreSQL's numeric division, digit for digit: a report that adds up stored day sums divides once, and must give the
 * figures the same division in SQL gives for the whole window. PostgreSQL keeps at least 16 significant digits of the
 * quotient and never fewer decimals than either operand (numeric.c, select_div_scale), estimating the quotient's
 * magnitude from the leading base-10000 digits of the operands, and rounds half away from zero.
 */
public final class PgNumeric {

    private static final int MIN_SIG_DIGITS = 16;
    private static final int DEC_DIGITS = 4;
    private static final int MAX_DISPLAY_SCALE = 1000;

    private PgNumeric() {
    }

    /** {@code dividend / divisor} as PostgreSQL computes {@code numeric / numeric}; the divisor is not zero. */
    public static BigDecimal divide(BigDecimal dividend, BigDecimal divisor) {
        int qweight = weight(dividend) - weight(divisor);
        if (firstDigit(dividend) <= firstDigit(divisor)) {
            qweight--;
        }
        int scale = MIN_SIG_DIGITS - qweight * DEC_DIGITS;
        scale = Math.max(scale, Math.max(dividend.scale(), 0));
        scale = Math.max(scale, Math.max(divisor.scale(), 0));
        scale = Math.min(scale, MAX_DISPLAY_SCALE);
        return dividend.divide(divisor, scale, RoundingMode.HALF_UP);
    }

    /** The position of the leading base-10000 digit: 0 for [1, 10000), 1 for [10000, 10^8), -1 for [0.0001, 1); 0 for zero. */
    static int weight(BigDecimal value) {
        if (value.signum() == 0) {
            return 0;
        }
        int exponent = value.precision() - value.scale() - 1;
        return Math.floorDiv(exponent, DEC_DIGITS);
    }

    /** The leading base-10000 digit (0 to 9999); 0 for zero. */
    static int firstDigit(BigDecimal value) {
        if (value.signum() == 0) {
            return 0;
        }
        return value.abs().movePointLeft(DEC_DIGITS * weight(value)).setScale(0, RoundingMode.DOWN).intValueExact();
    }
}
