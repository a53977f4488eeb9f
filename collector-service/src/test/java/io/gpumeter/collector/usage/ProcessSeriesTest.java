package io.gpumeter.collector.usage;

import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.fact.UsageScope;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessSeriesTest {

    private static final String H200 = "GPU-00000000-0000-0000-0000-000000000000";
    private static final Instant RECEIVED = Instant.parse("2026-07-03T22:30:00Z");

    private static List<UsageSample> samples(UsageMapping mapping) {
        return mapping.observations().stream().map(UsageSamples::of).toList();
    }

    private static UsageSample process(String gpu, String key, String ns, String pod, String container,
                                       UsageField field, double value, Instant at) {
        return new UsageSample(gpu, "h200-1", UsageScope.PROCESS, key, null, ns, pod, container, field, value, at);
    }

    @Test
    void computeAppsOfTheH200CaptureBecomeOneMemorySeriesPerProcess() {
        String csv = Fixtures.h200("load :: query-compute-apps (per-process)");
        ProcessOwners owners = ProcessOwners.parse("12249=ml/memhog-0/main, 12267=ml/burn-7");
        UsageMapping mapping = ProcessSeries.computeApps(NvidiaSmiComputeApps.parse(csv, ZoneOffset.UTC), "h200-1", owners);
        Instant at = Instant.parse("2026-07-03T22:22:27.377Z");
        assertEquals(List.of(
                process(H200, "ml/memhog-0/main/12249", "ml", "memhog-0", "main", UsageField.FB_USED_MIB, 2194, at),
                process(H200, "12250", null, null, null, UsageField.FB_USED_MIB, 1170, at),
                process(H200, "ml/burn-7//12267", "ml", "burn-7", null, UsageField.FB_USED_MIB, 13526, at)),
                samples(mapping));
        assertEquals(0, mapping.invalidSamples());
    }

    @Test
    void computeAppsWithoutMemoryAreSkippedWithTheirReason() {
        String csv = "timestamp, gpu_uuid, pid, used_gpu_memory [MiB]\n"
                + "2026/07/03 22:22:27.377, GPU-A, 41, [N/A]\n2026/07/03 22:22:27.377, GPU-A, 42, 512 MiB\n";
        UsageMapping mapping = ProcessSeries.computeApps(NvidiaSmiComputeApps.parse(csv, ZoneId.of("Europe/Berlin")),
                "h200-1", ProcessOwners.parse(null));
        assertEquals(List.of(process("GPU-A", "42", null, null, null, UsageField.FB_USED_MIB, 512,
                Instant.parse("2026-07-03T20:22:27.377Z"))), samples(mapping));
        assertEquals(1, mapping.invalidSamples());
        assertEquals(List.of("pid 41 on GPU-A: used_memory is not reported"), mapping.problems());
    }

    @Test
    void pmonSmTimeIsThePerProcessGpuUtilOfTheMappedCard() {
        String text = "# gpu         pid   type     sm    mem    enc    dec    jpg    ofa    command \n"
                + "# Idx           #    C/G      %      %      %      %      %      %    name \n"
                + "    0      18434     C     94     47      0      0      0      0    python         \n"
                + "    1      18435     C     12      3      0      0      0      0    python         \n"
                + "    1          -     -      -      -      -      -      -      -    -              \n";
        List<ProcessUtilization> rows = NvidiaSmiPmon.parse(text, ZoneOffset.UTC, RECEIVED);
        UsageMapping mapping = ProcessSeries.pmon(rows, "h200-1", ProcessOwners.parse("18435=chat/vllm-0/engine"),
                GpuIndexes.parse("0=GPU-A,1=GPU-B,"));
        assertEquals(List.of(
                process("GPU-A", "18434", null, null, null, UsageField.GPU_UTIL, 0.94, RECEIVED),
                process("GPU-B", "chat/vllm-0/engine/18435", "chat", "vllm-0", "engine", UsageField.GPU_UTIL, 0.12, RECEIVED)),
                samples(mapping));
    }

    @Test
    void pmonOfTheMigCaptureHasNoUtilizationAndSaysSo() {
        List<ProcessUtilization> rows = NvidiaSmiPmon.parse(Fixtures.h200("load :: pmon (per-process monitor)"),
                ZoneOffset.UTC, RECEIVED);
        UsageMapping mapping = ProcessSeries.pmon(rows, "h200-1", ProcessOwners.parse(null), GpuIndexes.parse("0=" + H200));
        // five rounds of three processes, every sm printed "-"
        assertEquals(0, mapping.observations().size());
        assertEquals(15, mapping.invalidSamples());
        assertTrue(mapping.problems().get(0).contains("no sm value"), mapping.problems().get(0));
    }

    @Test
    void pmonOnAnUnmappedIndexIsRefused() {
        List<ProcessUtilization> rows = List.of(new ProcessUtilization(2, 7, "C", 0.5, 0.1, "x", RECEIVED));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ProcessSeries.pmon(rows, "n", ProcessOwners.parse(null), GpuIndexes.parse("0=GPU-A")));
        assertTrue(e.getMessage().contains("GPU index 2"), e.getMessage());
    }
}
