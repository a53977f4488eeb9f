package io.gpumeter.collector.governance;

import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.XidFact;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KernelLogParserTest {

    static final Instant RECEIVED = Instant.parse("2026-06-01T00:00:00Z");
    static final String UUID = "GPU-509665ad-b600-ac93-3616-d754b23d636d";

    static KernelLogParser.Parsed parse(String body, Instant bootTime) {
        return new KernelLogParser("xe9680-1", ZoneId.of("UTC"), bootTime, RECEIVED).parse(List.of(body.split("\n")));
    }

    @Test
    void xid119LogYieldsFiveGpuAttributedXids() throws IOException {
        String log;
        try (InputStream in = getClass().getResourceAsStream("/governance/dmesg-xid-119-gsp-timeout-gpud.log")) {
            log = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        KernelLogParser.Parsed parsed = parse(log, null);
        assertEquals(List.of(new GpuAddressFact("xe9680-1", "0000:9b:00", UUID, Instant.parse("2025-02-23T16:24:18Z"))),
                parsed.addresses());
        assertEquals(5, parsed.xids().size());
        assertTrue(parsed.xids().stream().allMatch(x -> x.code() == 119 && x.pciBusId().equals("0000:9b:00")
                && UUID.equals(x.gpuUuid()) && x.node().equals("xe9680-1") && x.source().equals("kmsg")));
        assertEquals(List.of("2025-02-23T16:24:18Z", "2025-02-23T16:24:24Z", "2025-02-23T16:24:30Z", "2025-02-23T16:27:12Z",
                "2025-02-23T16:30:13Z"), parsed.xids().stream().map(x -> x.at().toString()).toList());
        XidFact first = parsed.xids().get(0);
        assertEquals(2024380L, first.pid());
        assertEquals("nvidia-smi", first.process());
        assertTrue(first.message().startsWith("Timeout after 6s of waiting for RPC response from GPU4 GSP!"), first.message());
        assertEquals("cache_mgr_main", parsed.xids().get(3).process());
        assertEquals(Map.of(), parsed.skipped());
        assertEquals(log.split("\n").length, parsed.lines());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "dmesg -T | [Tue Mar  4 09:05:07 2025] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus. | 2025-03-04T09:05:07Z | 79 | 0000:3b:00 | 0 | -",
            "dmesg iso | 2025-03-04T10:05:07,250000+0100 NVRM: Xid (PCI:0000:3B:00): 48, pid=4411, name=python, DBE (0x1) | 2025-03-04T09:05:07.250Z | 48 | 0000:3b:00 | 4411 | python",
            "journalctl short-iso | 2025-03-04T09:05:07+00:00 gpu-7 kernel: NVRM: Xid (PCI:0000:b1:00): 13, pid=977, name=train, Graphics SM Warp Exception | 2025-03-04T09:05:07Z | 13 | 0000:b1:00 | 977 | train",
            "monotonic | [  120.500000] NVRM: Xid (PCI:0000:3b:00): 31, pid=12, name=a.out, Ch 00000010, intr 10000000 | 2025-03-04T00:02:00.500Z | 31 | 0000:3b:00 | 12 | a.out",
            "dev kmsg | 4,1021,120500000,-;NVRM: Xid (PCI:0000:3b:00): 94, pid=12, Contained ECC error | 2025-03-04T00:02:00.500Z | 94 | 0000:3b:00 | 12 | -",
            "no time | NVRM: Xid (PCI:0000:3b:00): 63, pid=<unknown>, Row remapping event | 2026-06-01T00:00:00Z | 63 | 0000:3b:00 | - | -",
            "old form without PCI | [Tue Mar  4 09:05:07 2025] NVRM: Xid (0000:3b:00): 43, Ch 00000008 | 2025-03-04T09:05:07Z | 43 | 0000:3b:00 | - | -",
    })
    void lineFormats(String name, String line, String at, int code, String pci, Long pid, String process) {
        KernelLogParser.Parsed parsed = parse(line, Instant.parse("2025-03-04T00:00:00Z"));
        assertEquals(1, parsed.xids().size(), parsed.skipped().toString());
        XidFact x = parsed.xids().get(0);
        assertEquals(Instant.parse(at), x.at());
        assertEquals(code, x.code());
        assertEquals(pci, x.pciBusId());
        assertEquals(pid, x.pid());
        assertEquals(process, x.process());
        assertNull(x.gpuUuid());
    }

    @Test
    void monotonicTimesWithoutBootTimeAreSkippedAndOtherLinesIgnored() {
        KernelLogParser.Parsed parsed = parse(String.join("\n",
                "[  120.500000] NVRM: Xid (PCI:0000:3b:00): 31, pid=12, name=a.out, fault",
                "[  121.000000] usb 1-1: new high-speed USB device",
                "[  122.000000] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15"), null);
        assertEquals(3, parsed.lines());
        assertEquals(0, parsed.xids().size());
        assertEquals(Map.of("time since boot without bootTime", 1), parsed.skipped());
    }

    @Test
    void anAnnouncementLaterInTheLogStillNamesTheCard() {
        KernelLogParser.Parsed parsed = parse(String.join("\n",
                "[Tue Mar  4 09:05:07 2025] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.",
                "[Tue Mar  4 09:40:00 2025] NVRM: GPU at PCI:0000:3b:00: GPU-aaaa-bbbb"), null);
        assertEquals("GPU-aaaa-bbbb", parsed.xids().get(0).gpuUuid());
        assertEquals(Instant.parse("2025-03-04T09:40:00Z"), parsed.addresses().get(0).at());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "-", value = {
            "0000:9b:00, 0000:9b:00", "00000000:9B:00.0, 0000:9b:00", "9b:00.0, 0000:9b:00", "0001:3B:00, 0001:3b:00",
            "00000000:3B:00, 0000:3b:00", "xyz, -", "0000:9b, -", "'', -"})
    void pciAddressesNormalise(String text, String expected) {
        assertEquals(expected, PciBusId.normalize(text));
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "cuda-oom | torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity)",
            "cuda-oom | RuntimeError: CUDA error: out of memory",
            "gpu-invisible | RuntimeError: No CUDA GPUs are available: no CUDA-capable device is detected",
            "gpu-invisible | ImportError: libcuda.so.1: cannot open shared object file: No such file or directory",
            "cuda-driver-mismatch | CUDA error: CUDA driver version is insufficient for CUDA runtime version",
            "nccl-hang | [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=120, OpType=ALLREDUCE) ran for 600000 milliseconds before timing out.",
            "nccl-hang | node-2:311:402 [3] NCCL WARN Net : Connection timeout",
            "- | INFO epoch 3 loss 0.213",
            "- | NCCL INFO Channel 00/02 : 0 1 2 3",
    })
    void containerLogSignals(String signal, String line) {
        assertEquals(signal, LogSignals.classify(line));
    }
}
