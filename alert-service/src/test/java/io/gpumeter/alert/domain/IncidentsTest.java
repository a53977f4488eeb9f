package io.gpumeter.alert.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** The recent window and the open incidents as one list, each failure once. */
class IncidentsTest {

    static final Instant NOW = Instant.parse("2026-05-04T12:00:00Z");

    static Incident health(String gpu, Duration ago, boolean open) {
        return new Incident("gpu-health", "data-plane", "n1", gpu, null, null, NOW.minus(ago), open,
                "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL changed from 0 to 2");
    }

    static Incident oom(long minutesAgo) {
        return new Incident("oom", "workload", "n2", null, "ml", "p", NOW.minusSeconds(minutesAgo * 60), false);
    }

    @Test
    void anOpenIncidentInBothReadsCountsOnceAndOldOpenOnesJoinInOrderOfStart() {
        // Window (7 days): two closed OOMs and GPU-c's incident opened an hour ago.
        // Open: GPU-a (20 days ago), GPU-b (9 days ago) and GPU-c again.
        Incident gpuA = health("GPU-a", Duration.ofDays(20), true);
        Incident gpuB = health("GPU-b", Duration.ofDays(9), true);
        Incident gpuC = health("GPU-c", Duration.ofHours(1), true);
        List<Incident> window = List.of(gpuC, oom(12), oom(3));
        List<Incident> open = List.of(gpuA, gpuB, gpuC);
        List<Incident> merged = Incidents.merge(Source.available(window), Source.available(open)).orElse(null);
        // By start: -20 d, -9 d, -1 h, -12 min, -3 min; GPU-c once.
        assertEquals(List.of(gpuA, gpuB, gpuC, oom(12), oom(3)), merged);
    }

    @Test
    void whenTheReadsDisagreeTheCopySayingOpenCounts() {
        // GPU-c recovered between the two reads: the window saw it recovered, the open read still open.
        List<Incident> merged = Incidents.merge(Source.available(List.of(health("GPU-c", Duration.ofDays(1), false))),
                Source.available(List.of(health("GPU-c", Duration.ofDays(1), true)))).orElse(null);
        assertEquals(List.of(health("GPU-c", Duration.ofDays(1), true)), merged);
        merged = Incidents.merge(Source.available(List.of(health("GPU-c", Duration.ofDays(1), true))), Source.available(List.of()))
                .orElse(null);
        assertEquals(List.of(health("GPU-c", Duration.ofDays(1), true)), merged, "only the window saw it, still open");
    }

    @Test
    void eitherReadFailingFailsTheWholeAndAMissingEndpointIsAbsent() {
        Source<List<Incident>> ok = Source.available(List.of(health("GPU-a", Duration.ofDays(20), true)));
        Source<List<Incident>> failed = Incidents.merge(ok, Source.failed("ledger: 503"));
        assertInstanceOf(Source.Failed.class, failed);
        assertEquals("ledger: 503", failed.reason());
        assertInstanceOf(Source.Failed.class, Incidents.merge(Source.failed("ledger: timeout"), ok));
        assertEquals("ledger: timeout; ledger: 503",
                Incidents.merge(Source.failed("ledger: timeout"), Source.failed("ledger: 503")).reason());
        Source<List<Incident>> absent = Source.absent("ledger has no /api/v1/failures/incidents");
        assertInstanceOf(Source.Absent.class, Incidents.merge(absent, absent));
    }
}
