package io.gpumeter.slo.domain;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class LatencyHistogramsTest {

    /** Nearest rank: the smallest value with at least p% of the values at or below it. */
    private static double nearestRank(List<Double> sorted, double p) {
        int rank = (int) Math.ceil(p / 100 * sorted.size());
        return sorted.get(Math.max(rank, 1) - 1);
    }

    @Test
    void percentilesOfMergedEncodedMinutesMatchTheRawSamplesWithinTheStatedPrecision() {
        List<Double> raw = new ArrayList<>();
        Histogram merged = LatencyHistograms.empty();
        long seed = 7;
        for (int minute = 0; minute < 60; minute++) {
            for (int pod = 0; pod < 3; pod++) {
                Histogram h = LatencyHistograms.empty();
                for (int i = 0; i < 40; i++) {
                    seed = (seed * 6364136223846793005L + 1442695040888963407L);
                    // 5 ms to about 2 s, with a long tail every so often
                    double ms = 5 + ((seed >>> 33) % 200_000) / 100.0 * (i % 17 == 0 ? 10 : 1);
                    raw.add(LatencyHistograms.micros(ms) / 1000d);
                    h.recordValue(LatencyHistograms.micros(ms));
                }
                LatencyHistograms.mergeInto(merged, LatencyHistograms.encode(h));
            }
        }
        Collections.sort(raw);
        LatencySummary s = LatencyHistograms.summary(merged);
        assertEquals(7200, s.count());
        assertEquals(nearestRank(raw, 50), s.p50Ms(), nearestRank(raw, 50) * 0.001);
        assertEquals(nearestRank(raw, 95), s.p95Ms(), nearestRank(raw, 95) * 0.001);
        assertEquals(nearestRank(raw, 99), s.p99Ms(), nearestRank(raw, 99) * 0.001);
        assertEquals(raw.get(raw.size() - 1), s.maxMs(), raw.get(raw.size() - 1) * 0.001);
    }

    @Test
    void tenValuesGiveNearestRankPercentiles() {
        Histogram h = LatencyHistograms.empty();
        for (int ms = 10; ms <= 100; ms += 10) {
            h.recordValue(LatencyHistograms.micros(ms));
        }
        // ranks: p50 -> ceil(5) = 5th = 50; p95 -> ceil(9.5) = 10th = 100; p99 -> 10th = 100
        LatencySummary s = LatencyHistograms.summary(h);
        assertEquals(50, s.p50Ms(), 0.05);
        assertEquals(100, s.p95Ms(), 0.1);
        assertEquals(100, s.p99Ms(), 0.1);
        // 3 of 10 are at or under 30 ms
        assertEquals(3, LatencyHistograms.countAtOrBelow(h, 30));
        assertEquals(10, LatencyHistograms.countAtOrBelow(h, 1_000_000));
    }

    @Test
    void anEmptyHistogramHasNoPercentiles() {
        Histogram h = LatencyHistograms.empty();
        assertEquals(LatencySummary.EMPTY, LatencyHistograms.summary(h));
        assertNull(LatencyHistograms.percentileMs(h, 99));
        assertEquals(0, LatencyHistograms.countAtOrBelow(h, 300));
    }

    @Test
    void subMillisecondValuesKeepMicroseconds() {
        Histogram h = LatencyHistograms.empty();
        h.recordValue(LatencyHistograms.micros(0.25));
        Histogram back = LatencyHistograms.empty();
        LatencyHistograms.mergeInto(back, LatencyHistograms.encode(h));
        assertEquals(0.25, back.getMaxValue() / 1000d);
    }
}
