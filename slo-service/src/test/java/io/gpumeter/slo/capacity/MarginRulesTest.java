package io.gpumeter.slo.capacity;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MarginRulesTest {

    private static void share(String expected, BigDecimal actual) {
        assertEquals(0, new BigDecimal(expected).compareTo(actual), "expected " + expected + ", got " + actual);
    }

    @ParameterizedTest(name = "IF {0}, spread {1} over {2} ms, floor {3}: {4} ({5})")
    @CsvSource(nullValues = "null", value = {
            // w = max(IF, 1 + spread / p99); margin = 1 - 1/w
            "1.25, null, null, 0,    0.2,    measured",   // 1 - 1/1.25
            "null, 50,   200,  0,    0.2,    measured",   // 1 + 50/200 = 1.25
            "1.1,  100,  200,  0,    0.3333, measured",   // spread wins: w = 1.5
            "2,    10,   200,  0,    0.5,    measured",   // IF wins: w = 2
            "0.8,  0,    200,  0,    0,      measured",   // faster beside neighbours is no margin
            "1.25, null, null, 0.25, 0.25,   floor",      // 0.2 measured under a 0.25 floor
            "null, null, null, 0.05, 0.05,   floor",      // nothing measured
            "null, 40,   0,    0,    0,      floor",      // a p99 of 0 makes no ratio
            "20,   null, null, 0,    0.9,    measured"})  // 0.95 held at the 0.9 bound
    void jitterIsTheShareTheWorstCaseNeedsOverTheCalmCapacity(Double factor, Double spread, Double p99, double floor,
                                                             String applied, String source) {
        Margin m = MarginRules.jitter(factor, spread, p99, floor);
        share(applied, m.applied());
        assertEquals(source, m.source());
    }

    @Test
    void failuresAreTheShareOfCardsDownPlusPlannedMaintenance() {
        // 0.002 failures per card-hour repaired in 5 h: 1 % of cards down; maintenance 1.5 %
        Margin m = MarginRules.failures(0.002, 18_000.0, 0.015, 4, 0.02);
        share("0.025", m.applied());
        assertEquals(Margin.MEASURED, m.source());
        assertTrue(m.basis().contains("4 failures") && m.basis().contains("1.00% of cards down")
                && m.basis().contains("1.50% of card-hours"), m.basis());
        // failures never repaired give no repair time: maintenance alone is measured
        Margin unrepaired = MarginRules.failures(0.002, null, 0.03, 2, 0.02);
        share("0.03", unrepaired.applied());
        assertTrue(unrepaired.basis().contains("none repaired"), unrepaired.basis());
        Margin nothing = MarginRules.failures(null, null, null, 0, 0.02);
        assertNull(nothing.measured());
        share("0.02", nothing.applied());
        assertEquals(Margin.FLOOR, nothing.source());
    }

    @Test
    void peaksArePendingGpusOverWhatServesThemAndTheDemand() {
        Margin m = MarginRules.peaks(3.0, 14, 27.0, 1800.0, 0);
        share("0.1", m.applied()); // 3 / (27 + 3)
        assertTrue(m.basis().contains("14:00") && m.basis().contains("1800 s"), m.basis());
        share("0.05", MarginRules.peaks(null, null, 27.0, null, 0.05).applied());
        share("0", MarginRules.peaks(0.0, 3, 0.0, null, 0).applied()); // nothing at all: the floor
    }
}
