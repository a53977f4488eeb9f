package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.domain.LatencySummary;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The figures the quadrants gained, each on a fixture worked out by hand in its comment. */
class QuadrantFiguresTest {

    private static final Instant FROM = Instant.parse("2026-11-02T10:00:00Z");
    private static final Instant TO = Instant.parse("2026-11-02T11:00:00Z");

    private static Instant at(String hhmmss) {
        return Instant.parse("2026-11-02T" + hhmmss + "Z");
    }

    /**
     * <pre>
     * ml/a  created 10:00:30, succeeded in 10:00 and 10:03: up by the end of 10:00, 10:01:00 - 10:00:30 = 30 s
     * ml/b  created 10:05:10; its 10:02 was an earlier pod of the name; succeeded next in 10:07: 10:08:00 - 10:05:10 = 170 s
     * ml/c  created 10:50:00, never succeeded: counts until the window's end, 11:00:00 - 10:50:00 = 600 s
     * ml/d  created 09:59:59, before the window: started before it, not counted
     * ml/e  the ledger does not know when it was created: not counted
     * </pre>
     * The cell's cold start is the slowest, 600 s.
     */
    @Test
    void coldStartRunsFromCreationToTheEndOfTheFirstMinuteThatSucceeded() {
        Map<String, Instant> created = Map.of("ml/a", at("10:00:30"), "ml/b", at("10:05:10"), "ml/c", at("10:50:00"),
                "ml/d", at("09:59:59"));
        Map<String, List<Instant>> ok = Map.of("ml/a", List.of(at("10:00:00"), at("10:03:00")),
                "ml/b", List.of(at("10:02:00"), at("10:07:00")), "ml/d", List.of(at("10:00:00")),
                "ml/e", List.of(at("10:00:00")));
        List<ColdStarts.Start> starts = ColdStarts.of(List.of("ml/a", "ml/b", "ml/c", "ml/d", "ml/e"), created, ok,
                FROM, TO);
        List<Double> seconds = new ArrayList<>();
        starts.forEach(s -> seconds.add(s.seconds()));
        assertEquals(java.util.Arrays.asList(30.0, 170.0, 600.0, null, null), seconds);
        assertEquals(at("10:07:00"), starts.get(1).firstOkMinute());
        assertNull(starts.get(2).firstOkMinute());
        assertEquals(600.0, ColdStarts.longest(starts));
        assertNull(ColdStarts.longest(starts.subList(3, 5)), "no pod created in the window: no figure");
    }

    private static CellData.MinutePoint minute(String hhmm, long count, Double p99) {
        return new CellData.MinutePoint(at(hhmm + ":00"), new LatencySummary(count, p99, p99, p99, p99));
    }

    /** Per-minute p99s 120, 80 and 200 ms (a minute without requests aside): 200 - 80 = 120 ms; one minute: none. */
    @Test
    void p99SpreadIsTheLargestLessTheSmallestPerMinuteP99() {
        assertEquals(120.0, P99Spread.of(List.of(minute("10:00", 10, 120.0), minute("10:01", 10, 80.0),
                minute("10:02", 0, null), minute("10:03", 4, 200.0))));
        assertNull(P99Spread.of(List.of(minute("10:00", 10, 120.0), minute("10:01", 0, null))));
        assertNull(P99Spread.of(List.of()));
    }

    /** 3 events in half an hour are 6 an hour; 1 in two hours is 0.5; none is 0. */
    @Test
    void jitterEventsArePerHourOfTheWindow() {
        assertEquals(6.0, JitterRate.perHour(3, new TimeWindow(FROM, at("10:30:00"))));
        assertEquals(0.5, JitterRate.perHour(1, new TimeWindow(FROM, Instant.parse("2026-11-02T12:00:00Z"))));
        assertEquals(0.0, JitterRate.perHour(0, new TimeWindow(FROM, TO)));
    }

    /**
     * oom 10:20:00 -> 10:21:00 (60 s), crash 10:40:00 -> 10:42:30 (150 s), one still open since 10:50: the mean of the
     * two recovered is (60 + 150) / 2 = 105 s. Only open ones, or none: no figure.
     */
    @Test
    void mttrIsTheMeanOfRecoveredLessStartedOverThoseRecovered() throws Exception {
        JsonNode answer = new ObjectMapper().readTree("""
                [{"id": "a1", "namespace": "ml", "pod": "a", "cause": "oom", "startedAt": "2026-11-02T10:20:00Z",
                  "recoveredAt": "2026-11-02T10:21:00Z", "repairSeconds": 999},
                 {"id": "b1", "namespace": "ml", "pod": "b", "cause": "crash-loop", "startedAt": "2026-11-02T10:40:00Z",
                  "recoveredAt": "2026-11-02T10:42:30Z"},
                 {"id": "a2", "namespace": "ml", "pod": "a", "cause": "oom", "startedAt": "2026-11-02T10:50:00Z",
                  "recoveredAt": null, "open": true}]""");
        List<JsonNode> incidents = new ArrayList<>();
        answer.forEach(incidents::add);
        List<Mttr.Repair> repairs = Mttr.of(incidents);
        assertEquals(java.util.Arrays.asList(60.0, 150.0, null), repairs.stream().map(Mttr.Repair::seconds).toList(),
                "recovered less started, never the ledger's own repairSeconds");
        assertEquals(105.0, Mttr.mean(repairs));
        assertNull(Mttr.mean(repairs.subList(2, 3)), "only an open incident: nothing recovered");
        assertNull(Mttr.mean(List.of()));
    }

    /** Each metric's quadrant is the one SPEC gives it; a matrix column's is its metric's. */
    @Test
    void everyMetricDeclaresTheQuadrantItBelongsTo() {
        assertEquals(Quadrant.PERFORMANCE, Plan.Metric.COLD_START.quadrant());
        assertEquals(Quadrant.PERFORMANCE, Plan.Metric.THROUGHPUT.quadrant());
        assertEquals(Quadrant.STABILITY, Plan.Metric.P99_SPREAD.quadrant());
        assertEquals(Quadrant.STABILITY, Plan.Metric.JITTER_EVENT_RATE.quadrant());
        assertEquals(Quadrant.STABILITY, Plan.Metric.MTTR.quadrant());
        assertEquals(Quadrant.STABILITY, Plan.Metric.FAILURE_RATE.quadrant());
        assertEquals(Quadrant.EFFICIENCY, Plan.Metric.USED_ALLOCATED.quadrant());
        assertEquals(Quadrant.EFFICIENCY, Plan.Metric.FRAGMENTATION.quadrant());
        assertEquals(Quadrant.EFFICIENCY, Plan.Metric.TOKENS_PER_JOULE.quadrant());
        assertTrue(Plan.Metric.TOKENS_PER_JOULE.higherIsBetter(), "a floor, as tokens per second");
        assertEquals(Quadrant.GOVERNANCE, Plan.Metric.QUEUE_WAIT_P95.quadrant());
        assertEquals(Quadrant.STABILITY, Quadrant.of("TTFT_P99_SPREAD"));
        assertEquals(Quadrant.PERFORMANCE, Quadrant.of("E2E_P50"));
        assertEquals(Quadrant.STABILITY, Quadrant.of("JITTER_MINUTE_RATE"));
        assertEquals(Quadrant.GOVERNANCE, Quadrant.of(null), "a BLOCKED clause");
        assertNull(Quadrant.of("NOT_A_METRIC"));
    }
}
