package io.gpumeter.billing.domain;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CostNormTest {

    private static final CostNorm NORM = new CostNorm(4, new BigDecimal("2"), new BigDecimal("50.00"));

    private static List<BigDecimal> costs(String... values) {
        return java.util.Arrays.stream(values).map(BigDecimal::new).toList();
    }

    @Test
    void theThresholdIsTheMeanPlusSigmasSampleDeviations() {
        /*
         * Trailing 40, 50, 60, 50: mean 50, squared deviations 100 + 0 + 100 + 0 = 200, / (4 − 1) = 66.666667,
         * sd 8.164966 -> 8.16; threshold 50 + 2 x 8.164966 = 66.329932 -> 66.33.
         */
        CostNorm.Judgement at = NORM.judge("acme", new BigDecimal("66.33"), costs("40", "50", "60", "50"));
        assertEquals(new BigDecimal("50.00"), at.trailingMean());
        assertEquals(new BigDecimal("8.16"), at.trailingStdDev());
        assertEquals(new BigDecimal("66.33"), at.threshold());
        assertTrue(at.anomalous(), "66.33 is above the exact threshold 66.329932");
        assertFalse(NORM.judge("acme", new BigDecimal("66.32"), costs("40", "50", "60", "50")).anomalous());
    }

    @Test
    void aSmallJumpIsNoAnomalyHoweverFarAboveTheNorm() {
        List<BigDecimal> zeros = Collections.nCopies(4, BigDecimal.ZERO);
        assertFalse(NORM.judge("beta", new BigDecimal("49.99"), zeros).anomalous());
        assertTrue(NORM.judge("beta", new BigDecimal("50.00"), zeros).anomalous());
    }

    @Test
    void badSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new CostNorm(1, BigDecimal.ONE, BigDecimal.ONE));
        assertThrows(IllegalArgumentException.class, () -> new CostNorm(14, new BigDecimal("-1"), BigDecimal.ONE));
        assertThrows(IllegalArgumentException.class, () -> NORM.judge("x", BigDecimal.ONE, costs("1", "2")));
    }
}
