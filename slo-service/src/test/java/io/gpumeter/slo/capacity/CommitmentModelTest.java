package io.gpumeter.slo.capacity;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommitmentModelTest {

    private static Margin margin(double share) {
        return Margin.of(share, 0, "test");
    }

    @Test
    void cardsNeededHoldEachMarginAsAShareOfCapacity() {
        // 8 base cards, 0.1 + 0.05 + 0.05 held: C = 8 / 0.8 = 10, of which 1, 0.5 and 0.5 are the margins
        CommitmentModel.Stack s = CommitmentModel.stack(8, margin(0.1), margin(0.05), margin(0.05));
        assertEquals(8, s.base(), 1e-12);
        assertEquals(1, s.jitter(), 1e-12);
        assertEquals(0.5, s.failures(), 1e-12);
        assertEquals(0.5, s.peaks(), 1e-12);
        assertEquals(10, s.total(), 1e-12);
        assertFalse(s.capped());
        assertEquals(4, CommitmentModel.committed(5, margin(0.1), margin(0.05), margin(0.05)), 1e-12, "5 × 0.8");
    }

    @Test
    void marginsTogetherAreHeldAtTheBound() {
        // 0.6 + 0.4 + 0.2 = 1.2 held at 0.9: C = 1 / 0.1 = 10, the margins' 9 cards split 0.6 : 0.4 : 0.2
        CommitmentModel.Stack s = CommitmentModel.stack(1, margin(0.6), margin(0.4), margin(0.2));
        assertTrue(s.capped());
        assertEquals(10, s.total(), 1e-9);
        assertEquals(4.5, s.jitter(), 1e-9);
        assertEquals(3, s.failures(), 1e-9);
        assertEquals(1.5, s.peaks(), 1e-9);
    }

    @Test
    void theForecastIsTheHorizonsBusiestDayOnTheLine() {
        // 10, 12, 14, 16: slope 2, no residual; 7 days ahead of the last (x = 3 + 7): 10 + 2 × 10 = 30
        CommitmentModel.Forecast rising = CommitmentModel.forecast(new double[]{10, 12, 14, 16}, 7, 1.96);
        assertEquals(30, rising.point(), 1e-9);
        assertEquals(30, rising.high(), 1e-9);
        assertEquals(7, rising.aheadDays());
        assertEquals(2.0 * 7 / 16, rising.growthPerWeek(), 1e-9);
        // falling demand: its busiest day is the first ahead, 16 − 2 × 4... of 22, 20, 18, 16: 14
        CommitmentModel.Forecast falling = CommitmentModel.forecast(new double[]{22, 20, 18, 16}, 30, 1.96);
        assertEquals(14, falling.point(), 1e-9);
        assertEquals(1, falling.aheadDays());
        // two days are too few for a line: flat at their mean, no interval
        CommitmentModel.Forecast two = CommitmentModel.forecast(new double[]{4, 8}, 30, 1.96);
        assertEquals(6, two.point(), 1e-12);
        assertFalse(two.fitted());
        assertEquals(0, CommitmentModel.forecast(new double[0], 7, 1.96).point());
    }

    @Test
    void onlyWholeDaysInTheInventoryAreFitted() {
        LocalDate first = LocalDate.parse("2031-03-01");
        LocalDate end = LocalDate.parse("2031-03-08");
        assertEquals(List.of(LocalDate.parse("2031-03-05"), LocalDate.parse("2031-03-06"), LocalDate.parse("2031-03-07")),
                FittedDays.of(first, end, Instant.parse("2031-03-04T08:00:00Z")), "the day it joined is partial");
        assertEquals(4, FittedDays.of(first, end, Instant.parse("2031-03-04T00:00:00Z")).size(), "joined at midnight");
        assertEquals(7, FittedDays.of(first, end, Instant.parse("2030-01-01T00:00:00Z")).size());
        assertTrue(FittedDays.of(first, end, null).isEmpty(), "never in the inventory");
        assertTrue(FittedDays.of(first, end, Instant.parse("2031-03-09T00:00:00Z")).isEmpty(), "joined after");
    }

    @Test
    void aDegradePolicyIsConfiguredPerShapeElsePerClass() {
        DegradePolicies p = new DegradePolicies(Map.of("inference", "throttle", "batch", "PREEMPT"),
                Map.of("mig-1g.10gb", "queue"));
        assertEquals("throttle", p.ofClass("inference").policy());
        assertEquals("preempt", p.ofClass("batch").policy(), "case does not matter");
        assertEquals("queue", p.ofClass("notebook").policy(), "nothing configured: new work waits");
        assertTrue(p.ofClass("notebook").configuredBy().startsWith("default"));
        for (String bad : new String[]{"drop", "", "throttle,queue"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new DegradePolicies(Map.of("training", bad), Map.of()));
            assertTrue(e.getMessage().contains("gpumeter.slo.capacity.degrade.training"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new DegradePolicies(Map.of(), Map.of("hami", "x")));
        assertEquals(0, BigDecimal.ZERO.compareTo(Margin.of(-0.5, 0, "a faster neighbour").applied()));
    }
}
