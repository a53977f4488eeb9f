package io.gpumeter.collector.usage;

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

class NvidiaSmiComputeAppsTest {

    private static final String U = "GPU-5f0c2a81-9b3e-4d7a-8e21-3c6b9d0f1a42";
    private static final String TS = "2026/07/03 22:22:27.377";
    private static final Instant AT = Instant.parse("2026-07-03T22:22:27.377Z");
    private static final String HEAD = "timestamp, gpu_uuid, pid, used_gpu_memory [MiB]\n";

    static Stream<Arguments> valid() {
        return Stream.of(
                arguments("the documented query", HEAD + TS + ", " + U + ", 4242, 1170 MiB\n",
                        List.of(new ComputeApp(U, 4242, 1170L, null, AT))),
                arguments("nounits", "timestamp, gpu_uuid, pid, used_gpu_memory\n" + TS + ", " + U + ", 4242, 1170\n",
                        List.of(new ComputeApp(U, 4242, 1170L, null, AT))),
                arguments("query aliases as headers", "timestamp, uuid, pid, used_memory [MiB], name\n" + TS + ", " + U + ", 7, 5 MiB, python3\n",
                        List.of(new ComputeApp(U, 7, 5L, "python3", AT))),
                arguments("memory nvidia-smi cannot read", HEAD + TS + ", " + U + ", 4242, [N/A]\n",
                        List.of(new ComputeApp(U, 4242, null, null, AT))),
                arguments("no memory column", "pid, gpu_uuid, timestamp\n4242, " + U + ", " + TS + "\n",
                        List.of(new ComputeApp(U, 4242, null, null, AT))),
                arguments("process names with blanks and quotes", "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]\n"
                        + TS + ", " + U + ", 9, /opt/my app/\"serve\", 0 MiB\n",
                        List.of(new ComputeApp(U, 9, 0L, "/opt/my app/\"serve\"", AT))),
                arguments("header only: nothing running", HEAD, List.of()),
                arguments("two cards", HEAD + TS + ", " + U + ", 1, 1 MiB\n" + TS + ", GPU-2, 2, 2 MiB\n",
                        List.of(new ComputeApp(U, 1, 1L, null, AT), new ComputeApp("GPU-2", 2, 2L, null, AT))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void parses(String name, String body, List<ComputeApp> expected) {
        assertEquals(expected, NvidiaSmiComputeApps.parse(body, ZoneOffset.UTC));
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                arguments("empty body", "", 1, "empty body"),
                arguments("no gpu_uuid column", "timestamp, pid, used_gpu_memory [MiB]\n", 1, "no gpu_uuid column"),
                arguments("no pid column", "timestamp, gpu_uuid, used_gpu_memory [MiB]\n", 1, "no pid column"),
                arguments("no timestamp column", "gpu_uuid, pid\n", 1, "no timestamp column"),
                arguments("accounted-apps output", "timestamp, gpu_name, gpu_bus_id, gpu_serial, gpu_uuid, pid, gpu_utilization [%],"
                        + " mem_utilization [%], max_memory_usage [MiB], time [ms]\n", 1, "--query-accounted-apps"),
                arguments("a column twice", "timestamp, gpu_uuid, pid, pid\n", 1, "column pid appears twice"),
                arguments("memory in another unit", "timestamp, gpu_uuid, pid, used_gpu_memory [GiB]\n", 1, "nvidia-smi prints [MiB]"),
                arguments("a word for a pid", HEAD + TS + ", " + U + ", init, 1 MiB\n", 2, "\"init\" is not a process id"),
                arguments("pid 0", HEAD + TS + ", " + U + ", 0, 1 MiB\n", 2, "\"0\" is not a process id"),
                arguments("negative pid", HEAD + TS + ", " + U + ", -5, 1 MiB\n", 2, "\"-5\" is not a process id"),
                arguments("signed pid", HEAD + TS + ", " + U + ", +5, 1 MiB\n", 2, "\"+5\" is not a process id"),
                arguments("missing pid", HEAD + TS + ", " + U + ", [N/A], 1 MiB\n", 2, "column pid has no value"),
                arguments("fractional memory", HEAD + TS + ", " + U + ", 5, 1.5 MiB\n", 2, "is not a whole number of MiB"),
                arguments("negative memory", HEAD + TS + ", " + U + ", 5, -1 MiB\n", 2, "is not a non-negative number of MiB"),
                arguments("NaN memory", HEAD + TS + ", " + U + ", 5, NaN\n", 2, "is not a non-negative number"),
                arguments("a short row (a comma in the process name cannot be told apart)",
                        "timestamp, gpu_uuid, pid, process_name\n" + TS + ", " + U + ", 5\n", 2, "expected 4 cells"),
                arguments("a comma inside a process name", "timestamp, gpu_uuid, pid, process_name\n" + TS + ", " + U + ", 5, a,b\n",
                        2, "expected 4 cells as in the header on line 1, found 5"),
                arguments("a bad timestamp", HEAD + "yesterday, " + U + ", 5, 1 MiB\n", 2, "is not a timestamp"),
                arguments("a giant line", HEAD + TS + ", " + U + ", 5, 1 MiB" + "x".repeat(70_000) + "\n", 2, "longer than"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refuses(String name, String body, int line, String reason) {
        UsageParseException e = assertThrows(UsageParseException.class,
                () -> NvidiaSmiComputeApps.parse(body, ZoneOffset.UTC));
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.reason().contains(reason), e.getMessage());
    }

    @Test
    void readsTheProcessesOfTheLoadedH200() {
        // on a MIG-enabled card the rows carry the parent GPU's UUID: the instance is not named
        String uuid = "GPU-00000000-0000-0000-0000-000000000000";
        assertEquals(List.of(
                        new ComputeApp(uuid, 12249, 2194L, "/root/tools/memhog", AT),
                        new ComputeApp(uuid, 12250, 1170L, "/root/tools/memhog", AT),
                        new ComputeApp(uuid, 12267, 13526L, "./gpu_burn", AT)),
                NvidiaSmiComputeApps.parse(Fixtures.h200("load :: query-compute-apps (per-process)"), ZoneOffset.UTC));
    }

    @Test
    void readsTheIdleH200AsNoProcesses() {
        assertEquals(List.of(),
                NvidiaSmiComputeApps.parse(Fixtures.h200("idle :: query-compute-apps (per-process)"), ZoneId.of("UTC")));
    }

    @Test
    void refusesTheAccountedAppsOfTheH200() {
        UsageParseException e = assertThrows(UsageParseException.class,
                () -> NvidiaSmiComputeApps.parse(Fixtures.h200("load :: query-accounted-apps"), ZoneOffset.UTC));
        assertEquals(1, e.line());
    }
}
