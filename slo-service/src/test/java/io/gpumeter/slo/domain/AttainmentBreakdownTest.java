package io.gpumeter.slo.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.slo.domain.SloMinutesTest.latency;
import static io.gpumeter.slo.domain.SloMinutesTest.slo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Service "sum", TTFT p99 per minute at most 100 ms. Pod s-0 on card A (node n1, ClusterQueue cq-a) is slow (300 ms)
 * in 10:00-10:02 and 10:06; pod s-1 on card B (node n2, Volcano queue vq-b) is fast (40 ms) in 10:03-10:06; pod s-9
 * held no card at 10:05 (fast) and the ledger has no scheduling record of it.
 */
class AttainmentBreakdownTest {

    private static final Instant T0 = Instant.parse("2026-09-02T10:00:00Z");

    private static Instant at(int minute) {
        return T0.plusSeconds(60L * minute);
    }

    @Test
    void badMinutesLandOnTheCardTheyRanOn() {
        List<PodMinute> pods = new ArrayList<>();
        Map<AttainmentBreakdown.PodAt, List<AttainmentBreakdown.Card>> placed = new HashMap<>();
        AttainmentBreakdown.Card a = new AttainmentBreakdown.Card("GPU-A", "n1");
        AttainmentBreakdown.Card b = new AttainmentBreakdown.Card("GPU-B", "n2");
        for (int m : new int[]{0, 1, 2, 6}) {
            pods.add(latency("sum", "s-0", at(m), 4, 300));
            placed.put(new AttainmentBreakdown.PodAt("ns/s-0", at(m)), List.of(a));
        }
        for (int m : new int[]{3, 4, 5, 6}) {
            pods.add(latency("sum", "s-1", at(m), 4, 40));
            placed.put(new AttainmentBreakdown.PodAt("ns/s-1", at(m)), List.of(b, b));
        }
        pods.add(latency("sum", "s-9", at(5), 2, 40));
        Map<String, AttainmentBreakdown.Queue> queues = Map.of(
                "ns/s-0", AttainmentBreakdown.Queue.of("ns", "cq-a", "lq-a", null),
                "ns/s-1", AttainmentBreakdown.Queue.of("ns", null, null, "vq-b"));

        AttainmentBreakdown.Result r = AttainmentBreakdown.compute(slo("TTFT", "MINUTE", "100"), pods, placed, queues);

        // service-minutes 10:00-10:06; bad: 00, 01, 02 and 06 (8 requests, 4 at 300 ms: p99 300)
        assertEquals(7, r.minutes());
        assertEquals(4, r.badMinutes());
        assertEquals(7, r.events());
        assertEquals(4, r.badEvents());
        // 4 + 4 + 1 pod-minutes; bad: s-0's four and s-1's 10:06
        assertEquals(9, r.podMinutes());
        assertEquals(5, r.badPodMinutes());
        assertEquals(1, r.unplacedPodMinutes());
        assertEquals(0, r.unplacedBadPodMinutes());
        assertEquals(List.of(
                new AttainmentBreakdown.GpuShare("GPU-A", "n1", List.of("ns/s-0"), 4, 4, 4, 4),
                // a card listed twice for one pod-minute counts once
                new AttainmentBreakdown.GpuShare("GPU-B", "n2", List.of("ns/s-1"), 4, 1, 4, 0)), r.byGpu());
        assertEquals(List.of(new AttainmentBreakdown.NodeShare("n1", 4, 4, 4, 4),
                new AttainmentBreakdown.NodeShare("n2", 4, 1, 4, 0)), r.byNode());
        // every pod-minute under one queue, placed or not: 4 + 4 + 1 = 9
        assertEquals(List.of(
                new AttainmentBreakdown.QueueShare("cq-a", "clusterQueue", List.of("ns/s-0"), 4, 4, 4, 4),
                new AttainmentBreakdown.QueueShare("vq-b", "volcanoQueue", List.of("ns/s-1"), 4, 1, 4, 0),
                new AttainmentBreakdown.QueueShare("unknown", "unknown", List.of("ns/s-9"), 1, 0, 1, 0)), r.byQueue());
    }

    @Test
    void aPodOnTwoCardsOfOneNodeCountsOnEachCardAndOnceForTheNode() {
        AttainmentBreakdown.Card a = new AttainmentBreakdown.Card("GPU-A", "n1");
        AttainmentBreakdown.Card c = new AttainmentBreakdown.Card("GPU-C", "n1");
        AttainmentBreakdown.Result r = AttainmentBreakdown.compute(slo("TTFT", "REQUEST", "100"),
                List.of(latency("sum", "s-0", T0, 3, 50, 300)),
                Map.of(new AttainmentBreakdown.PodAt("ns/s-0", T0), List.of(a, c)),
                Map.of("ns/s-0", AttainmentBreakdown.Queue.of("ns", null, "lq-x", null)));
        // 6 requests, 3 over 100 ms
        assertEquals(List.of(new AttainmentBreakdown.GpuShare("GPU-A", "n1", List.of("ns/s-0"), 1, 1, 6, 3),
                new AttainmentBreakdown.GpuShare("GPU-C", "n1", List.of("ns/s-0"), 1, 1, 6, 3)), r.byGpu());
        assertEquals(List.of(new AttainmentBreakdown.NodeShare("n1", 1, 1, 6, 3)), r.byNode());
        // once under its queue too; a LocalQueue whose ClusterQueue the ledger does not know stands for itself
        assertEquals(List.of(new AttainmentBreakdown.QueueShare("ns/lq-x", "localQueue", List.of("ns/s-0"), 1, 1, 6, 3)),
                r.byQueue());
    }

    @Test
    void aPodIsGroupedUnderItsClusterQueueElseVolcanoQueueElseLocalQueueElseNone() {
        assertEquals(new AttainmentBreakdown.Queue("clusterQueue", "cq"), AttainmentBreakdown.Queue.of("ns", "cq", "lq", "vq"));
        assertEquals(new AttainmentBreakdown.Queue("volcanoQueue", "vq"), AttainmentBreakdown.Queue.of("ns", null, "lq", "vq"));
        assertEquals(new AttainmentBreakdown.Queue("localQueue", "ns/lq"), AttainmentBreakdown.Queue.of("ns", null, "lq", null));
        assertEquals(new AttainmentBreakdown.Queue("none", "none"), AttainmentBreakdown.Queue.of("ns", null, null, null));
    }
}
