package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.VolcanoJobFact;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VolcanoJobTrailTest {

    static VolcanoJobFact version(String rv, String observed, String phase, String changed, Integer retries) {
        return new VolcanoJobFact("j1", "ml", "train", rv, WatchEventType.MODIFIED, Instant.parse(observed),
                Instant.parse("2030-01-01T00:00:00Z"), null, "q", 2, "volcano", phase, null,
                changed == null ? null : Instant.parse(changed), retries);
    }

    @Test
    void aJobIsJudgedByItsNewestVersionWhateverOrderTheyCameIn() {
        VolcanoJobTrail trail = new VolcanoJobTrail(List.of(
                version("9", "2030-01-01T03:00:00Z", "Completed", "2030-01-01T02:59:00Z", 1),
                version("3", "2030-01-01T00:10:00Z", "Running", "2030-01-01T00:05:00Z", 0),
                version("5", "2030-01-01T01:00:00Z", "Restarting", "2030-01-01T00:59:00Z", 1),
                version("2", "2030-01-01T00:00:01Z", "Pending", "2030-01-01T00:00:00Z", null)));
        assertTrue(trail.finished());
        assertTrue(trail.succeeded());
        assertEquals(Instant.parse("2030-01-01T02:59:00Z"), trail.finishedAt());
        assertEquals(Instant.parse("2030-01-01T00:05:00Z"), trail.firstRunningAt());
        assertEquals(1, trail.retries());
        assertEquals(Instant.parse("2030-01-01T00:00:00Z"), trail.createdAt());
    }

    @Test
    void withoutTransitionTimesTheFirstObservationOfTheClosingPhaseDatesTheEndAndTheRunning() {
        VolcanoJobTrail trail = new VolcanoJobTrail(List.of(
                version("1", "2030-01-01T00:00:00Z", "Running", null, null),
                version("2", "2030-01-01T01:00:00Z", "Failed", null, 3),
                version("3", "2030-01-01T02:00:00Z", "Failed", null, 3)));
        assertEquals("Failed", trail.state());
        assertFalse(trail.succeeded());
        assertEquals(Instant.parse("2030-01-01T01:00:00Z"), trail.finishedAt());
        assertEquals(Instant.parse("2030-01-01T00:00:00Z"), trail.firstRunningAt());
        assertEquals(3, trail.retries());
    }

    @Test
    void anAbortedJobResumedHasNotFinishedAndOneNeverRunningHasNoStart() {
        VolcanoJobTrail resumed = new VolcanoJobTrail(List.of(
                version("1", "2030-01-01T00:00:00Z", "Aborted", "2030-01-01T00:00:00Z", 0),
                version("2", "2030-01-01T01:00:00Z", "Restarting", "2030-01-01T01:00:00Z", 0)));
        assertFalse(resumed.finished());
        assertNull(resumed.finishedAt());
        VolcanoJobTrail silent = new VolcanoJobTrail(List.of(version("1", "2030-01-01T00:00:00Z", null, null, null)));
        assertEquals("Pending", silent.state());
        assertNull(silent.firstRunningAt());
        assertEquals(0, silent.retries());
        assertEquals("q", silent.queue());
    }
}
