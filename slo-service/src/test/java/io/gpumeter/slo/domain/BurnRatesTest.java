package io.gpumeter.slo.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BurnRatesTest {

    private static final Instant END = Instant.parse("2026-05-31T00:00:00Z");
    private static final Duration THIRTY_DAYS = Duration.ofDays(30);

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // name                          | good | total | target | burn rate: bad / (total x (1 - target))
            "exactly at the budget's pace    |  990 |  1000 | 0.99   | 1.000000",
            "the fast page threshold         | 9856 | 10000 | 0.999  | 14.400000",
            "the slow page threshold         |   94 |   100 | 0.99   | 6.000000",
            "everything failing at 90%       |    0 |     3 | 0.9    | 10.000000",
            "a third of the budget, repeated |    2 |     3 | 0.99   | 33.333333",
            "nothing bad                     |  100 |   100 | 0.999  | 0.000000",
    })
    void burnRateIsTheErrorRateOverTheBudget(String name, long good, long total, String target, String expected) {
        BigDecimal budget = BigDecimal.ONE.subtract(new BigDecimal(target));
        assertEquals(new BigDecimal(expected), BurnRates.burnRate(good, total, budget));
    }

    @Test
    void aWindowWithoutEventsHasNoBurnRateAndNeverFires() {
        assertNull(BurnRates.burnRate(0, 0, new BigDecimal("0.001")));
        assertFalse(BurnRates.burnsFaster(0, 0, new BigDecimal("0.001"), BigDecimal.ONE));
    }

    @Test
    void firingNeedsStrictlyMoreThanTheFactorAsTheWorkbooksComparison() {
        BigDecimal budget = new BigDecimal("0.001");
        BigDecimal factor = new BigDecimal("14.4");
        // 144 bad of 10,000 is 14.4x exactly: not above; 145 is 14.5x
        assertFalse(BurnRates.burnsFaster(10_000 - 144, 10_000, budget, factor));
        assertTrue(BurnRates.burnsFaster(10_000 - 145, 10_000, budget, factor));
    }

    @ParameterizedTest(name = "{0}x over {1} spends {2} of a 30-day budget")
    @CsvSource({
            // the workbook's table: 2%, 5% and 10% of the budget
            "14.4, PT1H, 0.020000",
            "6,    PT6H, 0.050000",
            "1,    P3D,  0.100000",
    })
    void theWorkbooksAlertsSpendTheirShareOfAThirtyDayBudget(String factor, String window, String share) {
        assertEquals(new BigDecimal(share),
                BurnRates.budgetConsumed(new BigDecimal(factor), Duration.parse(window), THIRTY_DAYS));
        BurnAlert alert = BurnAlert.WORKBOOK.stream()
                .filter(a -> a.longWindow().equals(Duration.parse(window))).findFirst().orElseThrow();
        assertEquals(0, alert.factor().compareTo(new BigDecimal(factor)));
    }

    @Test
    void theWorkbookPairsLongAndShortWindows() {
        assertEquals(List.of("PAGE PT1H PT5M 14.4", "PAGE PT6H PT30M 6", "TICKET PT72H PT6H 1"),
                BurnAlert.WORKBOOK.stream().map(a -> a.severity() + " " + a.longWindow() + " " + a.shortWindow()
                        + " " + a.factor()).toList());
    }

    /** Events for each of the {@code count} minutes that end {@code endsBefore} minutes before END. */
    private static List<MinuteEvents> minutes(int count, int endsBefore, long total, long bad) {
        List<MinuteEvents> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new MinuteEvents(END.minus(Duration.ofMinutes(endsBefore + count - i)), total - bad, total));
        }
        return out;
    }

    private static SloStatus evaluate(String target, List<MinuteEvents> minutes) {
        return BurnRates.evaluate(new BigDecimal(target), THIRTY_DAYS, BurnAlert.WORKBOOK, minutes, END);
    }

    @Test
    void anHourAtTwentyTimesTheBudgetFiresEveryAlert() {
        // 60 minutes x 100 requests, 2 bad each: 2% errors against a 0.1% budget = 20x in every window
        SloStatus s = evaluate("0.999", minutes(60, 0, 100, 2));
        assertEquals(SloStatus.State.PAGE, s.state());
        assertTrue(s.alerts().stream().allMatch(AlertState::firing));
        assertEquals(new BigDecimal("20.000000"), s.alerts().get(0).shortWindow().burnRate());
        assertEquals(500, s.alerts().get(0).shortWindow().total());
        assertEquals(6000, s.total());
        assertEquals(5880, s.good());
        // 5880 / 6000; 6 bad allowed; 120 spent: 1 - 120 / 6 = -19
        assertEquals(new BigDecimal("0.980000"), s.attainment());
        assertEquals(0, s.allowedBad().compareTo(new BigDecimal("6")));
        assertEquals(new BigDecimal("-19.000000"), s.budgetRemaining());
    }

    @Test
    void aRecoveredShortWindowHoldsThePagesBackButNotTheTicket() {
        // 30 minutes at 6 bad in 100, then 30 clean minutes: 1h and 6h burn 180 / 6000 / 0.001 = 30x,
        // but 5m and 30m burn 0, so neither page fires; 3d and 6h both burn 30x > 1x: ticket.
        List<MinuteEvents> m = new ArrayList<>(minutes(30, 30, 100, 6));
        m.addAll(minutes(30, 0, 100, 0));
        SloStatus s = evaluate("0.999", m);
        assertEquals(SloStatus.State.TICKET, s.state());
        assertEquals(List.of(false, false, true), s.alerts().stream().map(AlertState::firing).toList());
        assertEquals(new BigDecimal("30.000000"), s.alerts().get(0).longWindow().burnRate());
        assertEquals(new BigDecimal("0.000000"), s.alerts().get(1).shortWindow().burnRate());
    }

    @Test
    void threeDaysAtTwiceThePaceOpenATicketOnly() {
        // 4320 minutes x 1000 requests, 2 bad each: 0.2% errors against 0.1% = 2x everywhere
        SloStatus s = evaluate("0.999", minutes(4320, 0, 1000, 2));
        assertEquals(SloStatus.State.TICKET, s.state());
        assertEquals(List.of(false, false, true), s.alerts().stream().map(AlertState::firing).toList());
        assertEquals(new BigDecimal("2.000000"), s.alerts().get(2).longWindow().burnRate());
        // 4,311,360 of 4,320,000 good; 4,320 bad allowed, 8,640 spent: 1 - 2 = -1
        assertEquals(new BigDecimal("0.998000"), s.attainment());
        assertEquals(new BigDecimal("-1.000000"), s.budgetRemaining());
    }

    @Test
    void onlyMinutesStartingInsideTheWindowCount() {
        List<MinuteEvents> m = List.of(
                new MinuteEvents(END.minus(THIRTY_DAYS).minusSeconds(60), 0, 100), // before the window
                new MinuteEvents(END.minus(THIRTY_DAYS), 99, 100),                 // its first minute
                new MinuteEvents(END, 0, 100));                                    // the window has ended
        SloStatus s = evaluate("0.99", m);
        assertEquals(100, s.total());
        assertEquals(99, s.good());
        // 1 bad of 1 allowed: the budget is spent exactly
        assertEquals(new BigDecimal("0.000000"), s.budgetRemaining());
        assertEquals(SloStatus.State.OK, s.state());
    }

    @Test
    void noEventsIsNoDataWithTheWholeBudgetLeft() {
        SloStatus s = evaluate("0.99", List.of());
        assertEquals(SloStatus.State.NO_DATA, s.state());
        assertNull(s.attainment());
        assertEquals(new BigDecimal("1.000000"), s.budgetRemaining());
        assertTrue(s.alerts().stream().noneMatch(AlertState::firing));
    }
}
