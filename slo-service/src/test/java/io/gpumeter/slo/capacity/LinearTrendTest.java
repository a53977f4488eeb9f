package io.gpumeter.slo.capacity;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LinearTrendTest {

    @Test
    void aSmallSeriesIsFittedAsWorkedOutByHand() {
        /*
         * y = 1, 3, 2, 6 on days 0..3: x̄ = 1.5, ȳ = 3, Sxx = 2.25 + 0.25 + 0.25 + 2.25 = 5,
         * Sxy = (−1.5)(−2) + (−0.5)(0) + (0.5)(−1) + (1.5)(3) = 7, slope = 7/5 = 1.4, intercept = 3 − 1.4·1.5 = 0.9.
         * Fitted 0.9, 2.3, 3.7, 5.1; residuals 0.1, 0.7, −1.7, 0.9; SSE = 4.2; σ = √(4.2/2) = √2.1 = 1.4491377.
         * Day 5: 0.9 + 7 = 7.9 ± 1.96·√2.1·√(1 + 1/4 + 3.5²/5) = 1.96·√2.1·√3.7 = 5.4634451.
         * Slope ± 1.96·√2.1/√5 = 1.2702252.
         */
        LinearTrend t = LinearTrend.fit(new double[]{1, 3, 2, 6});
        assertEquals(4, t.n());
        assertEquals(1.4, t.slope(), 1e-12);
        assertEquals(0.9, t.intercept(), 1e-12);
        assertEquals(1.5, t.meanX(), 1e-12);
        assertEquals(5.0, t.sxx(), 1e-12);
        assertEquals(1.4491377, t.residualSigma(), 1e-7);
        assertEquals(7.9, t.at(5), 1e-12);
        assertEquals(5.4634451, t.predictionHalfWidth(5, 1.96), 1e-7);
        assertEquals(1.2702252, t.slopeHalfWidth(1.96), 1e-7);
        assertTrue(t.trendIsClear(1.96), "1.4 > 1.27: the rise is more than noise");
        assertFalse(t.trendIsClear(2.5), "at z = 2.5 the half-width is 1.62 > 1.4");
    }

    @Test
    void anExactLineHasNoSpread() {
        LinearTrend t = LinearTrend.fit(new double[]{240, 252, 264, 276, 288, 300, 312});
        assertEquals(12, t.slope(), 1e-9);
        assertEquals(240, t.intercept(), 1e-9);
        assertEquals(0, t.residualSigma(), 1e-9);
        assertEquals(396, t.at(13), 1e-9);
    }

    @Test
    void twoDaysAreNotATrend() {
        assertThrows(IllegalArgumentException.class, () -> LinearTrend.fit(new double[]{1, 2}));
    }
}
