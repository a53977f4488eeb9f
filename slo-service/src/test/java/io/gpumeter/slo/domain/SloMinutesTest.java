package io.gpumeter.slo.domain;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A tenant's two services' pod-minutes turned into SLO events by hand. */
class SloMinutesTest {

    private static final Instant T0 = Instant.parse("2026-09-01T10:00:00Z");
    private static final Instant T1 = T0.plusSeconds(60);

    static SloDefinition slo(String sli, String per, String thresholdMs) {
        boolean latency = !sli.equals("AVAILABILITY");
        return SloDefinition.of("acme", new SloSelector.Parts(null, "acme", null), sli,
                latency ? new BigDecimal("99") : null, latency ? new BigDecimal(thresholdMs) : null, per, latency,
                new BigDecimal("0.9"), "PT1H", Duration.ofDays(35));
    }

    /** A pod-minute of {@code count} requests at each of the given latencies. */
    static PodMinute latency(String service, String pod, Instant minute, int count, double... ms) {
        return latency("ns", service, pod, minute, count, ms);
    }

    static PodMinute latency(String namespace, String service, String pod, Instant minute, int count, double... ms) {
        Histogram h = LatencyHistograms.empty();
        for (double v : ms) {
            h.recordValueWithCount(LatencyHistograms.micros(v), count);
        }
        return new PodMinute(service, namespace, pod, minute, h.getTotalCount(), 0, LatencyHistograms.encode(h));
    }

    @Test
    void oneNameInTwoNamespacesIsTwoServicesNeverMerged() {
        // ask in ns-a: 10 x 50 ms, good; ask in ns-b: 1 x 400 ms, bad. Merged they would be one bad minute.
        List<PodMinute> pods = List.of(latency("ns-a", "ask", "a-0", T0, 10, 50),
                latency("ns-b", "ask", "a-0", T0, 1, 400));
        assertEquals(List.of(new MinuteEvents(T0, 1, 2)), SloMinutes.perMinute(slo("TTFT", "MINUTE", "100"), pods));
        List<SloMinutes.ServiceMinute> seen = new ArrayList<>();
        SloMinutes.forEachServiceMinute(slo("TTFT", "MINUTE", "100"), pods, false, seen::add);
        assertEquals(List.of("ns-a", "ns-b"), seen.stream().map(SloMinutes.ServiceMinute::namespace).toList());
    }

    @Test
    void perMinuteEachServiceMinuteIsOneEventJudgedOnItsMergedPods() {
        List<PodMinute> pods = List.of(
                // 10:00 ask: a-0 10 x 50 ms and a-1 1 x 400 ms -> merged 11, p99 = 11th = 400 ms: bad
                latency("ask", "a-0", T0, 10, 50), latency("ask", "a-1", T0, 1, 400),
                // 10:00 rank: 5 x 80 ms: good
                latency("rank", "r-0", T0, 5, 80),
                // 10:01 ask: 10 x 50 ms good; rank 5 x 250 ms bad
                latency("rank", "r-0", T1, 5, 250), latency("ask", "a-0", T1, 10, 50));
        assertEquals(List.of(new MinuteEvents(T0, 1, 2), new MinuteEvents(T1, 1, 2)),
                SloMinutes.perMinute(slo("TTFT", "MINUTE", "100"), pods));
    }

    @Test
    void perRequestAndAvailabilityCountEveryRequestOfEveryService() {
        List<PodMinute> pods = List.of(latency("ask", "a-0", T0, 10, 50), latency("ask", "a-1", T0, 1, 400),
                latency("rank", "r-0", T0, 5, 80));
        // 16 requests, one over 100 ms
        assertEquals(List.of(new MinuteEvents(T0, 15, 16)), SloMinutes.perMinute(slo("TTFT", "REQUEST", "100"), pods));
        List<PodMinute> counts = List.of(new PodMinute("ask", "ns", "a-0", T0, 10, 2, null),
                new PodMinute("rank", "ns", "r-0", T0, 5, 0, null), new PodMinute("rank", "ns", "r-0", T1, 4, 1, null));
        assertEquals(List.of(new MinuteEvents(T0, 13, 15), new MinuteEvents(T1, 3, 4)),
                SloMinutes.perMinute(slo("AVAILABILITY", null, null), counts));
    }

    @Test
    void eachPodIsAlsoJudgedOnItsOwn() {
        List<SloMinutes.ServiceMinute> seen = new ArrayList<>();
        SloMinutes.forEachServiceMinute(slo("TTFT", "MINUTE", "100"),
                List.of(latency("ask", "a-0", T0, 10, 50), latency("ask", "a-1", T0, 1, 400)), true, seen::add);
        assertEquals(1, seen.size());
        assertEquals(true, seen.get(0).bad());
        assertEquals(List.of(new MinuteEvents(T0, 1, 1), new MinuteEvents(T0, 0, 1)),
                seen.get(0).pods().stream().map(SloMinutes.PodEvents::events).toList());
    }
}
