package io.gpumeter.collector.service;

import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.fact.UsageScope;
import io.gpumeter.common.problem.ApiProblem;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UsageBufferTest {

    static UsageSample sm(String gpu, String pod, double value, String at) {
        return new UsageSample(gpu, "n1", UsageScope.DEVICE, "", null, pod == null ? null : "ml", pod, null,
                UsageField.SM_ACTIVE, value, Instant.parse(at));
    }

    static List<UsagePartial> partials(List<UsageBatch> batches) {
        return batches.stream().flatMap(b -> b.partials().stream())
                .sorted(Comparator.comparing(UsagePartial::minute).thenComparing(p -> String.valueOf(p.pod())))
                .toList();
    }

    @Test
    void aSeriesSecondIsHeldOnceTheEarliestReadingWinning() {
        List<UsageBatch> sent = new ArrayList<>();
        UsageBuffer buffer = new UsageBuffer(100, 100, sent::add);
        UsageBuffer.Added first = buffer.add("c1", List.of(sm("GPU-1", null, 0.5, "2026-07-01T10:00:05.900Z"),
                sm("GPU-1", null, 0.25, "2026-07-01T10:00:30Z")));
        // 10:00:05.100 is the same second, earlier: it replaces 0.5; 10:01:00 opens the next minute.
        UsageBuffer.Added second = buffer.add("c1", List.of(sm("GPU-1", null, 0.75, "2026-07-01T10:00:05.100Z"),
                sm("GPU-1", null, 1.0, "2026-07-01T10:01:00Z")));
        assertEquals(new UsageBuffer.Added(2, 0), first);
        assertEquals(new UsageBuffer.Added(1, 1), second);
        assertEquals(3, buffer.size());

        assertEquals(3, buffer.flush());
        assertEquals(0, buffer.size());
        List<UsagePartial> p = partials(sent);
        assertEquals(2, p.size(), "one partial per series and minute");
        assertEquals(Instant.parse("2026-07-01T10:00:00Z"), p.get(0).minute());
        assertArrayEquals(new int[] {5100, 30000}, p.get(0).millis());
        assertArrayEquals(new double[] {0.75, 0.25}, p.get(0).values());
        assertEquals(Instant.parse("2026-07-01T10:01:00Z"), p.get(1).minute());
        assertArrayEquals(new int[] {0}, p.get(1).millis());
        assertEquals("c1", sent.get(0).cluster());
        assertTrue(sent.get(0).samples().isEmpty());
    }

    @Test
    void seriesDifferingOnlyInThePodTheyNameStayApart() {
        List<UsageBatch> sent = new ArrayList<>();
        UsageBuffer buffer = new UsageBuffer(100, 100, sent::add);
        buffer.add("c1", List.of(sm("GPU-1", "a", 0.5, "2026-07-01T10:00:01Z"), sm("GPU-1", "b", 0.6, "2026-07-01T10:00:02Z")));
        buffer.flush();
        List<UsagePartial> p = partials(sent);
        assertEquals(List.of("a", "b"), p.stream().map(UsagePartial::pod).toList());
        assertEquals("ml", p.get(0).namespace());
        assertEquals("n1", p.get(0).node());
        assertArrayEquals(new int[] {2000}, p.get(1).millis());
    }

    @Test
    void aBodyThatDoesNotFitIsRefusedWhole() {
        UsageBuffer buffer = new UsageBuffer(3, 100, b -> { });
        buffer.add("c1", List.of(sm("GPU-1", null, 0.1, "2026-07-01T10:00:01Z"), sm("GPU-1", null, 0.2, "2026-07-01T10:00:02Z")));
        assertThrows(UsageBuffer.Full.class, () -> buffer.add("c1", List.of(sm("GPU-2", null, 0.1, "2026-07-01T10:00:01Z"),
                sm("GPU-2", null, 0.2, "2026-07-01T10:00:02Z"))));
        assertEquals(2, buffer.size(), "nothing of the refused body is held");
        buffer.add("c1", List.of(sm("GPU-3", null, 0.1, "2026-07-01T10:00:01Z")));
        assertEquals(3, buffer.size());
        buffer.flush();
        assertEquals(0, buffer.size());
        buffer.add("c1", List.of(sm("GPU-2", null, 0.1, "2026-07-01T10:00:01Z"), sm("GPU-2", null, 0.2, "2026-07-01T10:00:02Z")));
        assertEquals(2, buffer.size(), "room again once delivered");
    }

    @Test
    void aFlushTheLedgerDoesNotTakeKeepsEverythingForTheNext() {
        AtomicBoolean up = new AtomicBoolean(false);
        List<UsageBatch> sent = new ArrayList<>();
        UsageBuffer buffer = new UsageBuffer(100, 100, b -> {
            if (!up.get()) {
                throw new IllegalStateException("ledger down");
            }
            sent.add(b);
        });
        buffer.add("c1", List.of(sm("GPU-1", null, 0.5, "2026-07-01T10:00:01Z")));
        assertEquals(0, buffer.flush());
        assertTrue(buffer.stalled());
        assertEquals(1, buffer.size(), "the sealed batch still counts");
        // More arrives for the same minute while the ledger is away: a second partial of it.
        buffer.add("c1", List.of(sm("GPU-1", null, 0.7, "2026-07-01T10:00:02Z")));
        assertEquals(2, buffer.size());
        up.set(true);
        assertEquals(2, buffer.flush());
        assertFalse(buffer.stalled());
        assertEquals(0, buffer.size());
        List<UsagePartial> p = partials(sent);
        assertEquals(2, p.size());
        assertEquals(1.2, p.stream().flatMapToDouble(x -> Arrays.stream(x.values())).sum(), 1e-12);
    }

    @Test
    void batchesHoldAtMostTheBatchSizeAndARefusedOneDoesNotHoldUpTheRest() {
        List<UsageBatch> sent = new ArrayList<>();
        UsageBuffer buffer = new UsageBuffer(100, 4, b -> {
            if (b.partials().stream().anyMatch(p -> p.gpuUuid().equals("GPU-BAD"))) {
                throw new ApiProblem(422, "Unprocessable Content", null, "refused");
            }
            sent.add(b);
        });
        // Three series of three seconds: 9 values, at most 4 per batch and a partial never split -> 3 batches.
        List<UsageSample> samples = new ArrayList<>();
        for (String gpu : List.of("GPU-1", "GPU-2", "GPU-BAD")) {
            for (int s = 1; s <= 3; s++) {
                samples.add(sm(gpu, null, 0.1 * s, "2026-07-01T10:00:0" + s + "Z"));
            }
        }
        buffer.add("c1", samples);
        assertEquals(6, buffer.flush());
        assertEquals(2, sent.size());
        assertTrue(sent.stream().allMatch(b -> b.values() <= 4));
        assertEquals(3, buffer.size(), "the refused batch is kept");
        assertTrue(buffer.stalled());
    }
}
