package io.gpumeter.slo.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JitterRunsTest {

    private static Instant at(int minute) {
        return Instant.parse("2026-08-03T10:00:00Z").plusSeconds(60L * minute);
    }

    @Test
    void consecutiveMinutesStrictlyOverTheLimitAreOneRun() {
        TreeMap<Instant, Double> p99 = new TreeMap<>();
        p99.put(at(0), 150.0);
        p99.put(at(1), 200.0);   // at the limit: not over
        p99.put(at(2), 201.0);
        p99.put(at(3), 450.0);
        p99.put(at(4), 90.0);
        p99.put(at(5), 300.0);
        p99.put(at(7), 300.0);   // 10:06 had no requests: a new run
        assertEquals(List.of(new JitterRuns.Run(at(2), at(4), 2, 450.0),
                        new JitterRuns.Run(at(5), at(6), 1, 300.0),
                        new JitterRuns.Run(at(7), at(8), 1, 300.0)),
                JitterRuns.find(p99, 200));
    }

    @Test
    void aRunTouchesSpansItOverlapsOrAdjoins() {
        JitterRuns.Run run = new JitterRuns.Run(at(2), at(4), 2, 300);
        assertEquals(true, run.touches(at(4), at(6)));
        assertEquals(true, run.touches(at(0), at(2)));
        assertEquals(true, run.touches(at(3), at(9)));
        assertEquals(false, run.touches(at(5), at(6)));
    }
}
