package io.gpumeter.collector.usage;

import io.gpumeter.common.fact.ClockEventReason;
import io.gpumeter.common.fact.UsageField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class NvidiaSmiGpuQueryTest {

    private static final String H200 = "GPU-00000000-0000-0000-0000-000000000000";
    private static final String U = "GPU-5f0c2a81-9b3e-4d7a-8e21-3c6b9d0f1a42";
    private static final String TS = "2026/07/03 22:22:01.444";
    private static final Instant AT = Instant.parse("2026-07-03T22:22:01.444Z");

    private static UsageObservation o(UsageField field, double value) {
        return new UsageObservation(U, "node-a", null, null, null, null, null, null, field, value, AT);
    }

    private static UsageObservation o(String model, UsageField field, double value) {
        return new UsageObservation(U, "node-a", model, null, null, null, null, null, field, value, AT);
    }

    /** The nine reason series of a bitmask, 1 where its bit is set, as a row yields them after the bitmask. */
    private static List<UsageObservation> reasons(String model, long mask) {
        return java.util.Arrays.stream(ClockEventReason.values())
                .map(r -> o(model, r.field(), r.in(mask) ? 1 : 0)).toList();
    }

    private static List<UsageObservation> concat(List<UsageObservation> first, List<UsageObservation> then) {
        List<UsageObservation> out = new java.util.ArrayList<>(first);
        out.addAll(then);
        return out;
    }

    static Stream<Arguments> valid() {
        return Stream.of(
                arguments("three columns, nounits", "timestamp, uuid, utilization.gpu\n" + TS + ", " + U + ", 45\n",
                        List.of(o(UsageField.GPU_UTIL, 0.45))),
                arguments("units in header and values", "timestamp, uuid, utilization.gpu [%], memory.used [MiB]\n"
                        + TS + ", " + U + ", 45 %, 4 MiB\n", List.of(o(UsageField.GPU_UTIL, 0.45), o(UsageField.FB_USED_MIB, 4))),
                arguments("columns in another order", "memory.used [MiB], uuid, power.draw [W], timestamp\n"
                        + "4 MiB, " + U + ", 72.35 W, " + TS + "\n", List.of(o(UsageField.FB_USED_MIB, 4), o(UsageField.POWER_W, 72.35))),
                arguments("no blank after the commas", "timestamp,uuid,memory.free [MiB]\n" + TS + "," + U + ",143103 MiB\n",
                        List.of(o(UsageField.FB_FREE_MIB, 143103))),
                arguments("every metric column", "timestamp, name, uuid, utilization.gpu [%], memory.used [MiB], memory.free [MiB],"
                        + " memory.reserved [MiB], power.draw [W], clocks.current.sm [MHz], clocks_event_reasons.active\n"
                        + TS + ", NVIDIA L40S, " + U + ", 97 %, 32716 MiB, 12871 MiB, 511 MiB, 287.41 W, 1980 MHz, 0x0000000000000004\n",
                        concat(List.of(o("NVIDIA L40S", UsageField.GPU_UTIL, 0.97), o("NVIDIA L40S", UsageField.FB_USED_MIB, 32716),
                                o("NVIDIA L40S", UsageField.FB_FREE_MIB, 12871), o("NVIDIA L40S", UsageField.FB_RESERVED_MIB, 511),
                                o("NVIDIA L40S", UsageField.POWER_W, 287.41), o("NVIDIA L40S", UsageField.SM_CLOCK_MHZ, 1980),
                                o("NVIDIA L40S", UsageField.THROTTLE_REASONS, 4)), reasons("NVIDIA L40S", 4))),
                arguments("query aliases as headers", "timestamp, gpu_uuid, gpu_name, clocks.sm [MHz], clocks_throttle_reasons.active\n"
                        + TS + ", " + U + ", NVIDIA T4, 585 MHz, 0x0000000000000001\n",
                        concat(List.of(o("NVIDIA T4", UsageField.SM_CLOCK_MHZ, 585), o("NVIDIA T4", UsageField.THROTTLE_REASONS, 1)),
                                reasons("NVIDIA T4", 1))),
                arguments("per-reason columns without the bitmask", "timestamp, uuid, clocks_event_reasons.sw_power_cap,"
                        + " clocks_event_reasons.hw_thermal_slowdown, clocks_event_reasons.gpu_idle\n"
                        + TS + ", " + U + ", Active, Not Active, [N/A]\n",
                        List.of(o(UsageField.CLOCKS_EVENT_SW_POWER_CAP, 1), o(UsageField.CLOCKS_EVENT_HW_THERMAL_SLOWDOWN, 0))),
                arguments("the bitmask wins over the per-reason columns", "timestamp, uuid, clocks_event_reasons.active,"
                        + " clocks_event_reasons.sw_power_cap\n" + TS + ", " + U + ", 0x0000000000000040, Active\n",
                        concat(List.of(o(UsageField.THROTTLE_REASONS, 0x40)), reasons(null, 0x40))),
                arguments("power.draw.average stands in for a missing power.draw", "timestamp, uuid, power.draw [W], power.draw.average [W]\n"
                        + TS + ", " + U + ", [N/A], 70.5 W\n", List.of(o(UsageField.POWER_W, 70.5))),
                arguments("power.draw.instant alone", "timestamp, uuid, gpu.power.draw.instant [W]\n" + TS + ", " + U + ", 70.25 W\n",
                        List.of(o(UsageField.POWER_W, 70.25))),
                arguments("bracketed and N/A values are missing", "timestamp, uuid, utilization.gpu [%], memory.used [MiB], power.draw [W],"
                        + " clocks.current.sm [MHz], memory.free [MiB], memory.reserved [MiB]\n" + TS + ", " + U
                        + ", [N/A], [Not Supported], [Requested functionality has been deprecated], [Unknown Error], N/A, 5 MiB\n",
                        List.of(o(UsageField.FB_RESERVED_MIB, 5))),
                arguments("a row with every metric missing (MIG-enabled card) gives nothing",
                        "timestamp, uuid, utilization.gpu [%]\n" + TS + ", " + U + ", [N/A]\n", List.of()),
                arguments("empty cells are missing", "timestamp, uuid, memory.used, memory.free\n" + TS + ", " + U + ", , 7\n",
                        List.of(o(UsageField.FB_FREE_MIB, 7))),
                arguments("unknown columns are ignored", "timestamp, uuid, temperature.gpu, pstate, fan.speed [%], memory.used [MiB]\n"
                        + TS + ", " + U + ", 61, P0, [N/A], 4 MiB\n", List.of(o(UsageField.FB_USED_MIB, 4))),
                arguments("blank lines and no final newline", "\ntimestamp, uuid, memory.used\n\n" + TS + ", " + U + ", 4\n\n",
                        List.of(o(UsageField.FB_USED_MIB, 4))),
                arguments("CRLF line ends", "timestamp, uuid, memory.used\r\n" + TS + ", " + U + ", 4\r\n",
                        List.of(o(UsageField.FB_USED_MIB, 4))),
                arguments("whole-second timestamp", "timestamp, uuid, memory.used\n2026/07/03 22:22:01, " + U + ", 4\n",
                        List.of(new UsageObservation(U, "node-a", null, null, null, null, null, null, UsageField.FB_USED_MIB, 4,
                                Instant.parse("2026-07-03T22:22:01Z")))),
                arguments("utilization of 0 and 100", "timestamp, uuid, utilization.gpu\n" + TS + ", " + U + ", 0\n"
                        + TS + ", GPU-2, 100\n", List.of(o(UsageField.GPU_UTIL, 0),
                        new UsageObservation("GPU-2", "node-a", null, null, null, null, null, null, UsageField.GPU_UTIL, 1.0, AT))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void parses(String name, String body, List<UsageObservation> expected) {
        assertEquals(expected, NvidiaSmiGpuQuery.parse(body, ZoneOffset.UTC, "node-a"));
    }

    static Stream<Arguments> invalid() {
        String head = "timestamp, uuid, utilization.gpu [%]\n";
        return Stream.of(
                arguments("empty body", "", 1, "empty body"),
                arguments("only blank lines", "\n  \n\n", 1, "empty body"),
                arguments("header only", head, 1, "no GPU rows"),
                arguments("no uuid column", "timestamp, name, utilization.gpu\n" + TS + ", T4, 5\n", 1, "no uuid column"),
                arguments("no timestamp column", "uuid, utilization.gpu\n" + U + ", 5\n", 1, "no timestamp column"),
                arguments("no metric column", "timestamp, uuid, name, temperature.gpu\n" + TS + ", " + U + ", T4, 40\n", 1, "no metric column"),
                arguments("retired-pages output", "timestamp, gpu_name, gpu_bus_id, gpu_serial, gpu_uuid, retired_pages.address\n"
                        + TS + ", H200, 00000000:83:00.0, 0, " + H200 + ", [N/A]\n", 1, "no metric column"),
                arguments("a column twice", "timestamp, uuid, uuid, memory.used\n" + TS + ", " + U + ", " + U + ", 4\n", 1, "column uuid appears twice"),
                arguments("a column twice under two aliases", "timestamp, uuid, gpu_uuid, memory.used\n" + TS + ", " + U + ", " + U + ", 4\n",
                        1, "column uuid appears twice (columns 2 and 3)"),
                arguments("a header cell without a name", "timestamp, , uuid, memory.used\n", 1, "header column 2 has no name"),
                arguments("a short row", head + TS + ", " + U + "\n", 2, "expected 3 cells as in the header on line 1, found 2"),
                arguments("a long row", head + TS + ", " + U + ", 5 %, 6\n", 2, "expected 3 cells"),
                arguments("a word for a number", head + TS + ", " + U + ", high\n", 2, "column utilization.gpu: \"high\" is not a non-negative number of %"),
                arguments("a negative number", "timestamp, uuid, power.draw [W]\n" + TS + ", " + U + ", -5 W\n", 2, "is not a non-negative number of W"),
                arguments("NaN", head + TS + ", " + U + ", NaN\n", 2, "\"NaN\" is not a non-negative number"),
                arguments("Infinity", head + TS + ", " + U + ", Infinity %\n", 2, "is not a non-negative number"),
                arguments("an exponent nvidia-smi never prints", "timestamp, uuid, memory.used\n" + TS + ", " + U + ", 1e3\n", 2, "is not a non-negative number"),
                arguments("a hexadecimal number for memory", "timestamp, uuid, memory.used\n" + TS + ", " + U + ", 0x10\n", 2, "is not a non-negative number"),
                arguments("utilization above 100", head + TS + ", " + U + ", 101 %\n", 2, "101.0 is not a percentage 0..100"),
                arguments("a unit nvidia-smi does not print in the header", "timestamp, uuid, memory.used [GiB]\n" + TS + ", " + U + ", 4\n",
                        1, "column memory.used is in [GiB]; nvidia-smi prints [MiB]"),
                arguments("a unit nvidia-smi does not print in a value", "timestamp, uuid, memory.used [MiB]\n" + TS + ", " + U + ", 4 GiB\n",
                        2, "\"4 GiB\" is not a non-negative number of MiB"),
                arguments("an ISO timestamp", head + "2026-07-03T22:22:01.444, " + U + ", 5 %\n", 2, "is not a timestamp like"),
                arguments("a date that does not exist", head + "2026/02/30 10:00:00.000, " + U + ", 5 %\n", 2, "is not a timestamp like"),
                arguments("hour 24", head + "2026/07/03 24:00:00.000, " + U + ", 5 %\n", 2, "is not a timestamp like"),
                arguments("a missing timestamp", head + "[N/A], " + U + ", 5 %\n", 2, "column timestamp has no value"),
                arguments("a missing uuid", head + TS + ", [N/A], 5 %\n", 2, "column uuid has no value"),
                arguments("a bitmask without 0x", "timestamp, uuid, clocks_event_reasons.active\n" + TS + ", " + U + ", 4\n", 2, "is not a hexadecimal bitmask"),
                arguments("a reason neither Active nor Not Active", "timestamp, uuid, clocks_event_reasons.sw_power_cap\n" + TS
                        + ", " + U + ", Yes\n", 2, "column clocks_event_reasons.sw_power_cap: \"Yes\" is neither Active nor Not Active"),
                arguments("a bitmask with bad digits", "timestamp, uuid, clocks_event_reasons.active\n" + TS + ", " + U + ", 0xZZ\n", 2, "is not a hexadecimal bitmask"),
                arguments("a bitmask wider than 64 bits", "timestamp, uuid, clocks_event_reasons.active\n" + TS + ", " + U + ", 0x10000000000000000\n",
                        2, "is not a hexadecimal bitmask"),
                arguments("a later bad row names its line", head + TS + ", " + U + ", 5 %\n\n" + TS + ", GPU-2, x\n", 4, "\"x\""),
                arguments("a carriage return inside a line", head + TS + ", " + U + ",\r5 %\n", 2, "carriage return"),
                arguments("a giant line", head + TS + ", " + U + ", 5 %" + " ".repeat(70_000) + "\n", 2, "longer than 65536 characters"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refuses(String name, String body, int line, String reason) {
        UsageParseException e = assertThrows(UsageParseException.class,
                () -> NvidiaSmiGpuQuery.parse(body, ZoneOffset.UTC, "node-a"));
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.reason().contains(reason), e.getMessage());
    }

    @Test
    void readsTimestampsInTheGivenZone() {
        String body = "timestamp, uuid, memory.used\n2026/07/03 22:22:01.444, " + U + ", 4\n";
        assertEquals(Instant.parse("2026-07-03T20:22:01.444Z"),
                NvidiaSmiGpuQuery.parse(body, ZoneId.of("Europe/Berlin"), "n").get(0).at());
        assertEquals(Instant.parse("2026-07-04T05:22:01.444Z"),
                NvidiaSmiGpuQuery.parse(body, ZoneId.of("America/Los_Angeles"), "n").get(0).at());
    }

    @Test
    void usesTheHostnameColumnWhenNoNodeIsGiven() {
        String body = "timestamp, uuid, hostname, memory.used\n" + TS + ", " + U + ", gpu-node-07, 4\n"
                + TS + ", GPU-2, [N/A], 4\n";
        List<UsageObservation> observations = NvidiaSmiGpuQuery.parse(body, ZoneOffset.UTC, null);
        assertEquals("gpu-node-07", observations.get(0).node());
        assertEquals(null, observations.get(1).node());
        assertEquals("node-b", NvidiaSmiGpuQuery.parse(body, ZoneOffset.UTC, "node-b").get(0).node());
    }

    private static UsageObservation h200(UsageField field, double value, String time) {
        return new UsageObservation(H200, "h200-node", "NVIDIA H200", null, null, null, null, null, field, value,
                Instant.parse("2026-07-03T" + time + "Z"));
    }

    @Test
    void readsTheFullQueryOfAnIdleMigEnabledH200() {
        String body = Fixtures.h200("idle :: query-gpu (csv, what the exporter parses)");
        assertEquals(212, body.lines().findFirst().orElseThrow().split(",").length);
        // utilization.gpu is [N/A] on a MIG-enabled card; clocks_event_reasons.active 0x1 is GPU idle
        assertEquals(List.of(
                        h200(UsageField.FB_USED_MIB, 55, "22:22:01.444"),
                        h200(UsageField.FB_FREE_MIB, 143103, "22:22:01.444"),
                        h200(UsageField.FB_RESERVED_MIB, 614, "22:22:01.444"),
                        h200(UsageField.POWER_W, 78.28, "22:22:01.444"),
                        h200(UsageField.SM_CLOCK_MHZ, 345, "22:22:01.444"),
                        h200(UsageField.THROTTLE_REASONS, 1, "22:22:01.444")),
                NvidiaSmiGpuQuery.parse(body, ZoneOffset.UTC, "h200-node").subList(0, 6));
        // the bitmask's nine reasons follow: GPU idle alone, as the per-reason columns of the capture also say
        assertEquals(java.util.Arrays.stream(ClockEventReason.values())
                        .map(r -> h200(r.field(), r == ClockEventReason.GPU_IDLE ? 1 : 0, "22:22:01.444")).toList(),
                NvidiaSmiGpuQuery.parse(body, ZoneOffset.UTC, "h200-node").subList(6, 15));
    }

    @Test
    void readsTheFullQueryOfAnH200UnderLoad() {
        String body = Fixtures.h200("load :: query-gpu (csv, what the exporter parses)");
        assertEquals(List.of(
                        h200(UsageField.FB_USED_MIB, 16959, "22:22:27.218"),
                        h200(UsageField.FB_FREE_MIB, 126199, "22:22:27.218"),
                        h200(UsageField.FB_RESERVED_MIB, 614, "22:22:27.218"),
                        h200(UsageField.POWER_W, 295.01, "22:22:27.218"),
                        h200(UsageField.SM_CLOCK_MHZ, 1980, "22:22:27.218"),
                        h200(UsageField.THROTTLE_REASONS, 0, "22:22:27.218")),
                NvidiaSmiGpuQuery.parse(body, ZoneOffset.UTC, "h200-node").subList(0, 6));
        assertTrue(NvidiaSmiGpuQuery.parse(body, ZoneOffset.UTC, "h200-node").subList(6, 15).stream()
                .allMatch(o -> ClockEventReason.of(o.field()) != null && o.value() == 0));
    }

    @Test
    void readsTheLegacyPerReasonColumnsOfADriverBeforeClocksEventReasons() {
        List<UsageObservation> got = NvidiaSmiGpuQuery.parse(Fixtures.read("nvidia-smi-query-gpu-clocks-event-reasons.csv"),
                ZoneOffset.UTC, "l40s-node");
        String capped = "GPU-9b3d5e71-4c08-4a2f-8d6e-1f0c7b9a3e52";
        // 3 rows with values, each power, clock and the eight reasons nvidia-smi has a column for (no display)
        assertEquals(30, got.size());
        assertTrue(got.stream().noneMatch(o -> o.field() == UsageField.CLOCKS_EVENT_DISPLAY_CLOCK_SETTING));
        assertEquals(List.of(UsageField.CLOCKS_EVENT_SW_POWER_CAP, UsageField.CLOCKS_EVENT_SW_POWER_CAP,
                        UsageField.CLOCKS_EVENT_SW_THERMAL_SLOWDOWN, UsageField.CLOCKS_EVENT_HW_THERMAL_SLOWDOWN),
                got.stream().filter(o -> o.gpuUuid().equals(capped) && o.value() == 1 && ClockEventReason.of(o.field()) != null)
                        .map(UsageObservation::field).sorted().toList());
        assertTrue(got.stream().anyMatch(o -> !o.gpuUuid().equals(capped) && o.field() == UsageField.CLOCKS_EVENT_GPU_IDLE
                && o.value() == 1));
    }

    @Test
    void tellsTheCsvFormsApart() {
        assertEquals(NvidiaSmiCsv.Kind.GPU_QUERY,
                NvidiaSmiCsv.detect(Fixtures.h200("load :: query-gpu (csv, what the exporter parses)")));
        assertEquals(NvidiaSmiCsv.Kind.COMPUTE_APPS,
                NvidiaSmiCsv.detect(Fixtures.h200("load :: query-compute-apps (per-process)")));
        assertEquals(NvidiaSmiCsv.Kind.COMPUTE_APPS,
                NvidiaSmiCsv.detect("\n timestamp, gpu_uuid, pid, used_gpu_memory [MiB]\n"));
        UsageParseException e = assertThrows(UsageParseException.class, () -> NvidiaSmiCsv.detect(" \n"));
        assertEquals(1, e.line());
    }
}
