package io.gpumeter.billing.domain;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CapacityPlannerTest {

    private static final LocalDate FIRST = LocalDate.of(2026, 6, 1);

    private static List<ModelHistory.Day> days(double[] allocated, double capacityPerDay) {
        List<ModelHistory.Day> days = new ArrayList<>();
        for (int i = 0; i < allocated.length; i++) {
            days.add(new ModelHistory.Day(FIRST.plusDays(i), 24, allocated[i], capacityPerDay));
        }
        return days;
    }

    private static double d(BigDecimal value) {
        return value.doubleValue();
    }

    @Test
    void eightWeeksOfATrendWithBoundedNoiseAreRecoveredWithinTheReportedInterval() {
        /*
         * 56 days of y = 200 + 3·x GPU-hours plus noise drawn uniformly from [−10, 10) (seed 42). The horizon's last
         * day is x = 55 + 30 = 85, where the true line stands at 200 + 3·85 = 455.
         */
        Random noise = new Random(42);
        double[] y = new double[56];
        for (int x = 0; x < y.length; x++) {
            y[x] = 200 + 3 * x + (noise.nextDouble() * 20 - 10);
        }
        ModelPlan plan = CapacityPlanner.plan(new ModelHistory("H100", days(y, 24 * 40), null, null),
                new PlanTerms(30, 0.05, 0.85, 1.96, 1800));

        ModelPlan.Demand demand = plan.demand();
        assertTrue(d(demand.slopeLow()) <= 3 && 3 <= d(demand.slopeHigh()),
                "true slope 3 in [" + demand.slopeLow() + ", " + demand.slopeHigh() + "]");
        assertTrue(demand.trendClear());
        ModelPlan.Forecast forecast = plan.forecast();
        assertEquals(FIRST.plusDays(85).toString(), forecast.day());
        assertTrue(d(forecast.gpuHoursLow()) <= 455 && 455 <= d(forecast.gpuHoursHigh()),
                "true level 455 in [" + forecast.gpuHoursLow() + ", " + forecast.gpuHoursHigh() + "]");
        /*
         * The intervals are no wider than noise of at most 10 allows: σ ≤ 10, Sxx = 56·(56² − 1)/12 = 14630, so the
         * slope's half-width ≤ 1.96·10/√14630 = 0.162 and the forecast's ≤ 1.96·10·√(1 + 1/56 + 57.5²/14630) = 21.9.
         */
        assertTrue(d(demand.slopeHigh()) - d(demand.slopeLow()) <= 2 * 0.162, demand.toString());
        assertTrue(d(forecast.gpuHoursHigh()) - d(forecast.gpuHoursLow()) <= 2 * 21.9, forecast.toString());
        assertTrue(d(demand.residualSigma()) > 0 && d(demand.residualSigma()) <= 10);
        // The gap's range follows the forecast's: usable 40 × 0.95 = 38 cards minus demand / (24 × 0.85).
        assertEquals(38.0, d(plan.supply().usableCards()), 1e-9);
        assertEquals(38 - d(forecast.gpuHoursHigh()) / 20.4, d(plan.gap().low()), 0.006);
        assertEquals(38 - d(forecast.gpuHoursLow()) / 20.4, d(plan.gap().high()), 0.006);
    }

    @Test
    void fallingDemandPeaksOnTheHorizonsFirstDayAndLeavesASurplus() {
        /*
         * 480 − 24·x on days 0..6: slope −24, fitted last day 336, growth −24·7/336 = −50%/week. The busiest day ahead
         * is day 7: 480 − 168 = 312 GPU-hours = 13 cards at 100% target utilization; 480 card-hours a day = 20 cards,
         * no margin: 7 cards to spare. Queue: one of two days over 1800 s; 3 of 12 workloads rejected = 0.25.
         */
        ModelHistory.Queue queue = new ModelHistory.Queue("fleet", List.of("a", "b"), List.of(
                new ModelHistory.QueueDay(FIRST.plusDays(5), new BigDecimal("1800.001")),
                new ModelHistory.QueueDay(FIRST.plusDays(6), null)), 12, 3);
        ModelPlan plan = CapacityPlanner.plan(new ModelHistory("A100",
                days(new double[]{480, 456, 432, 408, 384, 360, 336}, 480), queue, null), new PlanTerms(30, 0, 1, 1.96, 1800));
        assertEquals(new BigDecimal("-24.000000"), plan.demand().slopePerDay());
        assertEquals(new BigDecimal("-0.500000"), plan.demand().growthPerWeek());
        assertEquals(FIRST.plusDays(7).toString(), plan.forecast().day());
        assertEquals(new BigDecimal("312.000"), plan.forecast().gpuHoursPerDay());
        assertEquals(new BigDecimal("13.00"), plan.forecast().cardsNeeded());
        assertEquals(new BigDecimal("20.00"), plan.supply().usableCards());
        assertEquals(new BigDecimal("7.00"), plan.gap().cards());
        assertEquals(1, plan.queue().daysOverLine());
        assertEquals(2, plan.queue().days());
        assertEquals(new BigDecimal("0.250000"), plan.queue().rejectionRate());
        assertEquals(new BigDecimal("1.000000"), plan.demand().peakUtilization());
        assertEquals(FIRST.toString(), plan.demand().peakDay());
        assertEquals("A100: demand falls ~50%/week; fleet queue p95 over 30 min on 1 of 2 days; "
                + "surplus of ~7 cards over the next 30 days", plan.summary());
    }

    @Test
    void aModelWithoutInventoryIsShortOfAllItNeeds() {
        // 36 GPU-hours a day on a model the inventory does not list: 36 / (24 × 0.75) = 2 cards needed, none supplied.
        ModelPlan plan = CapacityPlanner.plan(new ModelHistory("unknown", days(new double[]{36, 36, 36}, 0), null, null),
                new PlanTerms(7, 0.1, 0.75, 1.96, 1800));
        assertNull(plan.demand().peakUtilization());
        assertFalse(plan.demand().trendClear());
        assertEquals(new BigDecimal("-2.00"), plan.gap().cards());
        assertEquals("unknown: demand flat; short by ~2 cards for the next 7 days", plan.summary());
    }

    @Test
    void noDemandAndAClockChangeAreReadForWhatTheyAre() {
        ModelPlan idle = CapacityPlanner.plan(new ModelHistory("L4", days(new double[]{0, 0, 0}, 24), null, null),
                new PlanTerms(1, 0, 1, 1.96, 60));
        assertEquals("L4: no demand; surplus of ~1 card over the next 1 day", idle.summary());
        // 23 hours held on a 23-hour day is a full card, as 24 on a 24-hour day: no trend.
        List<ModelHistory.Day> days = List.of(new ModelHistory.Day(FIRST, 24, 24, 48),
                new ModelHistory.Day(FIRST.plusDays(1), 23, 23, 46), new ModelHistory.Day(FIRST.plusDays(2), 24, 24, 48));
        ModelPlan plan = CapacityPlanner.plan(new ModelHistory("L4", days, null, null), new PlanTerms(7, 0, 1, 1.96, 60));
        assertEquals(new BigDecimal("0.000000"), plan.demand().slopePerDay());
        assertEquals("L4: demand flat; surplus of ~1 card over the next 7 days", plan.summary());
    }
}
