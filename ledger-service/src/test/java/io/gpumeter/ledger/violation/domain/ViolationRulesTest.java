package io.gpumeter.ledger.violation.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ViolationRulesTest {

    static final Instant T0 = Instant.parse("2026-08-03T10:00:00Z");
    static final ViolationRules RULES = new ViolationRules(0.10, Duration.ofMinutes(5));
    // The pod holds 30 % of the card's cores and 8192 MiB from 10:00 to 11:00.
    static final List<ViolationRules.Holding> HOLDS = List.of(
            new ViolationRules.Holding("c", "GPU-1", "ml", "p", 30, 8192L, T0, T0.plusSeconds(3600)));

    static ContainerMinute at(int minute, Double cores, Double memory) {
        return new ContainerMinute("c", "GPU-1", "ml", "p", "main", T0.plusSeconds(60L * minute), cores, memory);
    }

    @Test
    void aShortSpikeIsSoftASustainedOneHard() {
        List<ContainerMinute> series = new ArrayList<>();
        // minutes 0-1: 0.32 is within 110 % of 0.30; minutes 2-3: 0.40 (soft, 2 min); minute 4 back to 0.30;
        // minutes 10-15: 0.45 for 6 minutes -> hard.
        series.add(at(0, 0.32, null));
        series.add(at(1, 0.33, null));
        series.add(at(2, 0.40, null));
        series.add(at(3, 0.39, null));
        series.add(at(4, 0.30, null));
        for (int m = 10; m <= 15; m++) {
            series.add(at(m, 0.45, null));
        }
        List<Violation> found = RULES.find(series, HOLDS);
        assertEquals(2, found.size(), found.toString());
        Violation soft = found.get(0);
        assertEquals(Violation.Kind.SOFT, soft.kind());
        assertEquals("CORES", soft.resource());
        assertEquals(T0.plusSeconds(120), soft.start());
        assertEquals(T0.plusSeconds(240), soft.end());
        assertEquals(2, soft.minutes());
        assertEquals(0.40 / 0.30, soft.peakRatio(), 1e-12);
        Violation hard = found.get(1);
        assertEquals(Violation.Kind.HARD, hard.kind());
        assertEquals(6, hard.minutes());
        assertEquals(1.5, hard.peakRatio(), 1e-12);
    }

    @Test
    void memoryOverTheGrantIsItsOwnEpisode() {
        List<Violation> found = RULES.find(List.of(at(0, 0.1, 9500.0), at(1, 0.1, 8000.0)), HOLDS);
        assertEquals(1, found.size());
        assertEquals("MEMORY", found.get(0).resource());
        assertEquals(9500.0 / 8192, found.get(0).peakRatio(), 1e-12);
    }

    @Test
    void useWithoutAnAllocationIsABypass() {
        // After 11:00 the pod holds nothing on the card but its container still computes.
        List<Violation> found = RULES.find(List.of(at(60, 0.2, null), at(61, 0.2, null), at(62, 0.0, null)), HOLDS);
        assertEquals(1, found.size());
        assertEquals(Violation.Kind.BYPASS, found.get(0).kind());
        assertEquals(2, found.get(0).minutes());
        assertEquals(null, found.get(0).peakRatio(), "no allocation to divide by");
    }

    @Test
    void aProcessOutsideItsPodsHoldingsIsABypassHoweverLittleItUses() {
        // 10:59 inside the holding; 11:00 memory only, 11:01 SM time only: one episode; 11:02 idle; 11:03 again.
        List<ContainerMinute> processes = List.of(
                at(59, 0.9, 70_000.0), at(60, null, 300.0), at(61, 0.01, 0.0), at(62, 0.0, 0.0), at(63, 0.05, null));
        List<Violation> found = RULES.bypasses(processes, HOLDS);
        assertEquals(2, found.size(), found.toString());
        assertEquals(Violation.Kind.BYPASS, found.get(0).kind());
        assertEquals("PROCESS", found.get(0).resource());
        assertEquals(T0.plusSeconds(3600), found.get(0).start());
        assertEquals(2, found.get(0).minutes());
        assertEquals(T0.plusSeconds(3780), found.get(1).start());
        assertEquals(1, found.get(1).minutes());
    }

    @Test
    void noCoreReservationMeansNoCoreLimit() {
        List<ViolationRules.Holding> memoryOnly = List.of(
                new ViolationRules.Holding("c", "GPU-1", "ml", "p", 0, 8192L, T0, null));
        assertTrue(RULES.find(List.of(at(0, 0.9, 100.0)), memoryOnly).isEmpty());
    }

    @Test
    void driftIsAGapBeyondTheToleranceAndTheFloor() {
        DriftRule drift = new DriftRule(0.10, 512);
        List<Violation> found = drift.find(List.of(
                new DriftRule.CardMinute("c", "GPU-1", T0, 10_000, 10_500),                    // 500 MiB: under the floor
                new DriftRule.CardMinute("c", "GPU-1", T0.plusSeconds(60), 8_000, 12_000),       // 4000 of 12000: drift
                new DriftRule.CardMinute("c", "GPU-1", T0.plusSeconds(120), 9_000, 12_000),      // 3000: drift
                new DriftRule.CardMinute("c", "GPU-1", T0.plusSeconds(180), 11_500, 12_000)));   // 500: fine
        assertEquals(1, found.size());
        assertEquals(Violation.Kind.DRIFT, found.get(0).kind());
        assertEquals(T0.plusSeconds(60), found.get(0).start());
        assertEquals(2, found.get(0).minutes());
        assertEquals(4000.0 / 12000, found.get(0).peakRatio(), 1e-12);
    }
}
