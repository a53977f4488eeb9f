package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static io.gpumeter.ledger.governance.domain.Facts.t;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class FailureRowTest {

    static Incident incident(String cause, String start, String recovered, String ended) {
        return new Incident(cause + start, "pod", "u", cause, RootCauseClass.WORKLOAD, "n", null, null, "ml", "p", "u",
                t(start), recovered == null ? null : t(recovered), ended == null ? null : t(ended), 1, null);
    }

    /**
     * Five failures over 250 allocated GPU-hours and 40 pod starts. Repairs 120 s, 600 s, 3600 s; one open, one
     * ended unrecovered. Rate 5 × 1000 / 250 = 20 per 1,000 GPU-hours; 5 / 40 = 0.125 per start; MTTR p50 is the
     * 2nd of 3 (ceil 1.5) = 600 s; mean (120 + 600 + 3600) / 3 = 1440 s.
     */
    @Test
    void rateAndMttrOfAConstructedHistory() {
        FailureRow row = FailureRow.of("all", null, List.of(
                incident("oom", "2026-05-01T00:00:00Z", "2026-05-01T00:02:00Z", null),
                incident("oom", "2026-05-01T01:00:00Z", "2026-05-01T01:10:00Z", null),
                incident("gpu-lost", "2026-05-01T02:00:00Z", "2026-05-01T03:00:00Z", null),
                incident("image-pull", "2026-05-01T04:00:00Z", null, null),
                incident("crash-loop", "2026-05-01T05:00:00Z", null, "2026-05-01T05:30:00Z")),
                new BigDecimal("250"), 40);
        assertEquals(5, row.count());
        assertEquals(0, new BigDecimal("20").compareTo(row.ratePer1000GpuHours()));
        assertEquals(0, new BigDecimal("0.125").compareTo(row.ratePerPodStart()));
        assertEquals(0, new BigDecimal("600").compareTo(row.mttrP50Seconds()));
        assertEquals(0, new BigDecimal("1440").compareTo(row.mttrMeanSeconds()));
        assertEquals(3, row.recovered());
        assertEquals(1, row.open());
    }

    @Test
    void noHoursOrStartsGiveNoRateAndNoRecoveryNoMttr() {
        FailureRow row = FailureRow.of("x", "workload", List.of(incident("oom", "2026-05-01T00:00:00Z", null, null)),
                BigDecimal.ZERO, 0);
        assertNull(row.ratePer1000GpuHours());
        assertNull(row.ratePerPodStart());
        assertNull(row.mttrP50Seconds());
        assertNull(row.mttrMeanSeconds());
        assertEquals(1, row.open());
    }

    @Test
    void ratesAreExactDecimals() {
        // 1 failure over 3 GPU-hours: 1000 / 3 = 333.333333 (six places, half-even); 1 of 3 starts = 0.333333.
        FailureRow row = FailureRow.of("x", null, List.of(incident("oom", "2026-05-01T00:00:00Z", "2026-05-01T00:00:01.5Z", null)),
                new BigDecimal("3"), 3);
        assertEquals("333.333333", row.ratePer1000GpuHours().toPlainString());
        assertEquals("0.333333", row.ratePerPodStart().toPlainString());
        assertEquals("1.5", row.mttrP50Seconds().toPlainString());
    }
}
