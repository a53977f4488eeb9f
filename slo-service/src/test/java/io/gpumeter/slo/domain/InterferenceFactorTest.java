package io.gpumeter.slo.domain;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class InterferenceFactorTest {

    private static final Instant T = Instant.parse("2026-08-03T10:00:00Z");

    /** Values under 2.048 ms are exact in the histogram, so every figure here is exact. */
    private static Histogram of(long micros, int count) {
        Histogram h = LatencyHistograms.empty();
        h.recordValueWithCount(micros, count);
        return h;
    }

    @Test
    void bucketsByCountAndKindMergeHistogramsAndDivideThroughput() {
        List<InterferenceFactor.PodMinute> minutes = List.of(
                new InterferenceFactor.PodMinute(T, "p", 0, null, 10, of(500, 10)),
                new InterferenceFactor.PodMinute(T, "q", 0, null, 10, of(500, 10)),
                // two neighbours: 99 at 600 us and 1 at 2000 us: p99 = 99th = 600 us
                new InterferenceFactor.PodMinute(T, "r", 2, NeighbourKind.TRAINING, 4, of(600, 99)),
                new InterferenceFactor.PodMinute(T, "s", 5, NeighbourKind.UNKNOWN, 1, of(2000, 1)));
        InterferenceFactor.Report r = InterferenceFactor.compute(minutes);
        assertEquals(0.5, r.neighbours("0").p99Ms());
        assertNull(r.neighbours("1").p99Ms());
        assertEquals(0.6, r.neighbours("2").p99Ms());
        assertEquals(new BigDecimal("1.200"), r.neighbours("2").ifLatency());
        // T_dedicated = 20 / 2 = 10, T_2 = 4 / 1: 2.5
        assertEquals(new BigDecimal("2.500"), r.neighbours("2").ifThroughput());
        assertEquals(new BigDecimal("4.000"), r.neighbours("3+").ifLatency());
        assertEquals(new BigDecimal("10.000"), r.neighbours("3+").ifThroughput());
        assertEquals(1, r.byKind().get(0).podMinutes());
        assertEquals("unknown", r.byKind().get(2).bucket());
        assertEquals(new BigDecimal("4.000"), r.byKind().get(2).ifLatency());
    }

    @Test
    void neighbourKindsFollowTheDocumentedRule() {
        assertEquals(NeighbourKind.INFERENCE, NeighbourKind.of("Job", true));
        assertEquals(NeighbourKind.TRAINING, NeighbourKind.of("PyTorchJob", false));
        assertEquals(NeighbourKind.UNKNOWN, NeighbourKind.of("Deployment", false));
        assertEquals(NeighbourKind.UNKNOWN, NeighbourKind.of(null, false));
        assertEquals(NeighbourKind.TRAINING, NeighbourKind.dominant(List.of(NeighbourKind.INFERENCE,
                NeighbourKind.TRAINING)));
        assertEquals(NeighbourKind.INFERENCE, NeighbourKind.dominant(List.of(NeighbourKind.UNKNOWN,
                NeighbourKind.INFERENCE)));
    }
}
