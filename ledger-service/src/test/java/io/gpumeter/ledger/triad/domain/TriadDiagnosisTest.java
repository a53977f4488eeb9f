package io.gpumeter.ledger.triad.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class TriadDiagnosisTest {

    static final TriadThresholds T = new TriadThresholds(0.5, 0.5, 0.2, 0.5);

    /** Empty cells are fields that were not measured. */
    @ParameterizedTest(name = "{0}: {1}/{2}/{3} -> {4}")
    @CsvSource({
            "decode,                  0.9,  0.2,  0.8,  BANDWIDTH_BOUND,   HIGH, LOW,  HIGH, ''",
            "training mid DRAM,       0.9,  0.7,  0.3,  COMPUTE_BOUND,     HIGH, HIGH, MID,  ''",
            "training low DRAM,       0.9,  0.7,  0.1,  COMPUTE_BOUND,     HIGH, HIGH, LOW,  ''",
            "everything high,         0.9,  0.7,  0.6,  UNMATCHED,         HIGH, HIGH, HIGH, ''",
            "tiny kernels,            0.9,  0.1,  0.1,  BUSY_NOT_WORKING,  HIGH, LOW,  LOW,  ''",
            "low SM mid DRAM,         0.9,  0.1,  0.3,  UNMATCHED,         HIGH, LOW,  MID,  ''",
            "idle,                    0.05, 0.01, 0.02, IDLE,              LOW,  LOW,  LOW,  ''",
            "idle without SM_ACTIVE,  0.05,     , 0.02, IDLE,              LOW,  LOW,  LOW,  ''",
            "busy without SM_ACTIVE,  0.9,      , 0.8,  INSUFFICIENT_DATA, HIGH,     , HIGH, SM_ACTIVE",
            "no first column,             , 0.1,  0.1,  INSUFFICIENT_DATA,     , LOW,  LOW,  GR_ENGINE_ACTIVE",
            "no DRAM,                 0.05, 0.01,     , INSUFFICIENT_DATA, LOW,  LOW,     , DRAM_ACTIVE",
            "thresholds are high,     0.5,  0.5,  0.5,  UNMATCHED,         HIGH, HIGH, HIGH, ''",
            "dram-low is mid,         0.5,  0.49, 0.2,  UNMATCHED,         HIGH, LOW,  MID,  ''",
            "just under every line,   0.49, 0.49, 0.19, IDLE,              LOW,  LOW,  LOW,  ''",
    })
    void theFourSignatures(String name, Double first, Double sm, Double dram, TriadSignature expected,
                           TriadLevel firstLevel, TriadLevel smLevel, TriadLevel dramLevel, String missing) {
        TriadDiagnosis d = TriadDiagnosis.of("GR_ENGINE_ACTIVE", first, sm, dram, T);
        assertEquals(expected, d.signature());
        assertEquals(new TriadDiagnosis.Levels(firstLevel, smLevel, dramLevel), d.levels());
        assertEquals(missing.isEmpty() ? List.of() : List.of(missing), d.missing());
        assertEquals(expected.meaning(), d.meaning());
    }

    /**
     * Three minutes of one card: GR_ENGINE_ACTIVE 0.9 (2 samples summing 1.8), 0.8, 0.1; GPU_UTIL too, which the
     * engine field outranks; SM_ACTIVE 0.2, 0.3, 0.0; DRAM_ACTIVE 0.7, 0.8, 0.0 (2 samples in the first minute).
     * Window means by samples: engine (1.8+0.8+0.1)/4 = 0.675, SM (0.2+0.3+0)/3 = 1/6, DRAM (1.4+0.8+0)/4 = 0.55
     * -> high/low/high: bandwidth-bound; minutes: two bandwidth-bound, one idle.
     */
    @Test
    void aWindowReadsItsSampleWeightedMeansAndEachMinuteOnItsOwn() {
        Instant t = Instant.parse("2026-08-03T10:00:00Z");
        List<TriadMinute> minutes = List.of(
                new TriadMinute(t, sum(1.8, 2), sum(1.0, 1), sum(0.2, 1), sum(1.4, 2)),
                new TriadMinute(t.plusSeconds(60), sum(0.8, 1), sum(1.0, 1), sum(0.3, 1), sum(0.8, 1)),
                new TriadMinute(t.plusSeconds(120), sum(0.1, 1), null, sum(0.0, 1), sum(0.0, 1)));
        TriadSummary s = TriadSummary.of(minutes, T);
        assertEquals("GR_ENGINE_ACTIVE", s.window().firstColumn());
        assertEquals(0.675, s.window().firstColumnMean());
        assertEquals(0.166667, s.window().smActiveMean());
        assertEquals(0.55, s.window().dramActiveMean());
        assertEquals(TriadSignature.BANDWIDTH_BOUND, s.window().signature());
        assertEquals(Map.of(TriadSignature.BANDWIDTH_BOUND, 2, TriadSignature.IDLE, 1), s.minutes());
        assertEquals(3, s.measuredMinutes());
    }

    @Test
    void gpuUtilIsTheFirstColumnOnlyWhenTheEngineFieldIsNeverMeasured() {
        Instant t = Instant.parse("2026-08-03T10:00:00Z");
        TriadSummary s = TriadSummary.of(List.of(new TriadMinute(t, null, sum(0.9, 1), sum(0.8, 1), sum(0.1, 1))), T);
        assertEquals("GPU_UTIL", s.window().firstColumn());
        assertEquals(TriadSignature.COMPUTE_BOUND, s.window().signature());
        TriadSummary none = TriadSummary.of(List.of(), T);
        assertNull(none.window().firstColumn());
        assertEquals(TriadSignature.INSUFFICIENT_DATA, none.window().signature());
        assertEquals(0, none.measuredMinutes());
    }

    private static TriadMinute.Sum sum(double sum, int samples) {
        return new TriadMinute.Sum(sum, samples);
    }
}
