package io.gpumeter.ledger.usage.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Increases worked out by hand from readings of DCGM's counters (energy in mJ, violation time in ns). */
class CounterIncreaseTest {

    private static final Instant T0 = Instant.parse("2026-08-05T10:00:00Z");
    private static final Instant FROM = T0.minusSeconds(3600);
    private static final Instant TO = T0.plusSeconds(3600);

    private static CounterIncrease.Reading at(int secondsAfterT0, double value) {
        return new CounterIncrease.Reading(T0.plusSeconds(secondsAfterT0).toEpochMilli(), value);
    }

    private static Map<Instant, CounterIncrease.Minute> energy(CounterIncrease.Reading... readings) {
        return CounterIncrease.perMinute(List.of(readings), CounterField.ENERGY, FROM, TO);
    }

    private static double minute(Map<Instant, CounterIncrease.Minute> out, int minuteAfterT0) {
        CounterIncrease.Minute m = out.get(T0.plusSeconds(60L * minuteAfterT0));
        return m == null ? Double.NaN : m.sum();
    }

    @Test
    void aSteadyCardAt300WattsScrapedEvery15SecondsGains18KilojoulesAMinute() {
        List<CounterIncrease.Reading> readings = new ArrayList<>();
        for (int s = -15; s <= 120; s += 15) {
            readings.add(at(s, 1_000_000_000L + 300_000.0 * (s + 15)));
        }
        Map<Instant, CounterIncrease.Minute> out =
                CounterIncrease.perMinute(readings, CounterField.ENERGY, FROM, TO);
        assertEquals(18_000, minute(out, 0), 1e-6);
        assertEquals(18_000, minute(out, 1), 1e-6);
        CounterIncrease.Minute first = out.get(T0);
        assertEquals(60, first.covered(), 1e-9);
        assertEquals(60, first.samples());
        assertEquals(300, first.sum() / first.samples(), 1e-9, "the row's mean is the card's power");
        assertEquals(300, first.max(), 1e-9);
        assertEquals(-1L >>> 4, first.seconds(), "all 60 seconds");
    }

    @Test
    void aResetCountsTheNewReadingWholeAsPrometheusDoes() {
        // 10:00:00 5,000 J; 10:00:30 5,900 J (+900); the driver reloads; 10:01:00 600 J (+600 from zero); 10:01:30 1,500 J
        Map<Instant, CounterIncrease.Minute> out = energy(at(0, 5_000_000), at(30, 5_900_000), at(60, 600_000),
                at(90, 1_500_000));
        assertEquals(1_500, minute(out, 0), 1e-9);
        assertEquals(900, minute(out, 1), 1e-9);
    }

    @Test
    void aViolationCounterResetsToo() {
        // 4 s held back, reset (2 s since), then 1 s more, all within 10:00 (ns)
        Map<Instant, CounterIncrease.Minute> out = CounterIncrease.perMinute(List.of(at(0, 40e9), at(20, 44e9),
                at(40, 2e9), at(60, 3e9)), CounterField.POWER_VIOLATION, FROM, TO);
        assertEquals(7, minute(out, 0), 1e-9);
        assertEquals(7.0 / 60, out.get(T0).sum() / out.get(T0).covered(), 1e-9, "a share of the covered time");
    }

    @Test
    void aStaleCopyBelowTheLastReadingCountsNothingAndKeepsTheReference() {
        // MIG copies of one counter read a few mJ apart: 1,000,000 then 999,995 (stale) then 1,030,000
        Map<Instant, CounterIncrease.Minute> out = energy(at(0, 1_000_000), at(15, 999_995), at(30, 1_030_000));
        assertEquals(30, minute(out, 0), 1e-9);
    }

    @Test
    void aGapLongerThanFiveMinutesIsNotBridged() {
        Map<Instant, CounterIncrease.Minute> out = energy(at(0, 1_000_000), at(360, 9_000_000), at(390, 9_300_000));
        assertEquals(List.of(T0.plusSeconds(360)), List.copyOf(out.keySet()), "only the minute after the gap");
        assertEquals(300, minute(out, 6), 1e-9);
        assertEquals(30, out.get(T0.plusSeconds(360)).covered(), 1e-9);
    }

    @Test
    void aStretchAcrossAMinuteIsSplitByTheTimeInEach() {
        // 10:00:50 to 10:01:10, 2,000 J: 1,000 J in each minute, each covering 10 s (seconds 50-59 and 0-9)
        Map<Instant, CounterIncrease.Minute> out = energy(at(50, 0), at(70, 2_000_000));
        assertEquals(1_000, minute(out, 0), 1e-9);
        assertEquals(1_000, minute(out, 1), 1e-9);
        assertEquals(0x3FFL << 50, out.get(T0).seconds());
        assertEquals(0x3FFL, out.get(T0.plusSeconds(60)).seconds());
        assertEquals(100, out.get(T0).max(), 1e-9, "100 W");
    }

    @Test
    void aViolationNeverExceedsTheTimeBetweenItsReadings() {
        // 30 s of throttling claimed in 15 s: a unit the counter does not count in, capped at the stretch
        Map<Instant, CounterIncrease.Minute> out = CounterIncrease.perMinute(List.of(at(0, 0), at(15, 30e9)),
                CounterField.THERMAL_VIOLATION, FROM, TO);
        assertEquals(15, minute(out, 0), 1e-9);
    }

    @Test
    void onlyTheMinutesOfTheWindowAreAnswered() {
        Map<Instant, CounterIncrease.Minute> out = CounterIncrease.perMinute(List.of(at(0, 0), at(120, 12_000_000)),
                CounterField.ENERGY, T0.plusSeconds(60), T0.plusSeconds(120));
        assertEquals(List.of(T0.plusSeconds(60)), List.copyOf(out.keySet()));
        assertEquals(6_000, minute(out, 1), 1e-9);
    }

    @Test
    void oneReadingOrNoneGainsNothing() {
        assertTrue(energy().isEmpty());
        assertTrue(energy(at(0, 5)).isEmpty());
        assertTrue(energy(at(0, 5), at(0, 9)).isEmpty(), "two readings at one instant are no stretch");
    }
}
