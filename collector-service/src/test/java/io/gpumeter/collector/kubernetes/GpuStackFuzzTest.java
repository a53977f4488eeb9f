package io.gpumeter.collector.kubernetes;

import io.gpumeter.collector.testing.GpuStackObjects;
import io.gpumeter.common.testing.Fuzz;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile variants of the GPU stack's watch events — a node, the operator's DaemonSet, a component's pod — are read,
 * skipped with a reason or refused as malformed lines, and never throw anything else.
 */
class GpuStackFuzzTest {

    static final Instant AT = Instant.parse("2026-05-01T10:00:00Z");

    @Test
    void noVariantOfAStackObjectBreaksTheReading() {
        List<String> seeds = List.of(
                GpuStackStreamTest.line("MODIFIED", GpuStackObjects.a100().build()),
                GpuStackStreamTest.line("ADDED", GpuStackObjects.dcgmExporter()),
                GpuStackStreamTest.line("MODIFIED", GpuStackObjects.devicePluginPod("gpu-operator").build()));
        AtomicInteger read = new AtomicInteger();
        Fuzz.json(42L, seeds).run(Math.max(1_000, Fuzz.cases()), bytes -> {
            FactSink sink = new FactSink(StackTranslatorsTest.STACK);
            try {
                WatchEvents.read(bytes, 0, bytes.length, 1, AT, sink);
            } catch (WatchStreamReader.MalformedLine refused) {
                return;
            }
            if (!sink.governanceFacts().isEmpty()) {
                read.incrementAndGet();
            }
        });
        assertTrue(read.get() >= 3, "the seeds and some variants are read: " + read.get());
    }
}
