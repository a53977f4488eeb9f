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

class NvidiaSmiPmonTest {

    private static final Instant RECEIVED = Instant.parse("2026-07-03T22:30:00Z");
    private static final String HEAD = "# gpu         pid   type     sm    mem    enc    dec    jpg    ofa    command \n"
            + "# Idx           #    C/G      %      %      %      %      %      %    name \n";
    private static final String OLD_HEAD = "# gpu        pid  type    sm   mem   enc   dec   command\n"
            + "# Idx          #   C/G     %     %     %     %   name\n";

    private static ProcessUtilization p(int gpu, long pid, String type, Double sm, Double mem, String command) {
        return new ProcessUtilization(gpu, pid, type, sm, mem, command, RECEIVED);
    }

    static Stream<Arguments> valid() {
        return Stream.of(
                arguments("one process", HEAD + "    0      12267     C     97     41      0      0      0      0    gpu_burn       \n",
                        List.of(p(0, 12267, "C", 0.97, 0.41, "gpu_burn"))),
                arguments("MIG rows print - for sm and mem", HEAD + "    0      12249     C      -      -      -      -      -      -    memhog         \n",
                        List.of(p(0, 12249, "C", null, null, "memhog"))),
                arguments("a GPU without processes gives nothing", HEAD + "    0          -     -      -      -      -      -      -      -    -              \n",
                        List.of()),
                arguments("an older driver without jpg and ofa", OLD_HEAD + "    1      31337     C    45    12     0     0   python\n",
                        List.of(p(1, 31337, "C", 0.45, 0.12, "python"))),
                arguments("graphics and MPS types", HEAD + "0 10 G 1 0 0 0 0 0 Xorg\n0 11 C+G 2 1 0 0 0 0 app\n0 12 M 3 0 0 0 0 0 server\n",
                        List.of(p(0, 10, "G", 0.01, 0.0, "Xorg"), p(0, 11, "C+G", 0.02, 0.01, "app"), p(0, 12, "M", 0.03, 0.0, "server"))),
                arguments("a command with blanks", HEAD + "0 10 C 5 1 0 0 0 0 my tool --flag\n",
                        List.of(p(0, 10, "C", 0.05, 0.01, "my tool --flag"))),
                arguments("type printed as -", HEAD + "0 10 - 5 1 - - - - -\n", List.of(p(0, 10, null, 0.05, 0.01, null))),
                arguments("tabs between columns", HEAD + "0\t10\tC\t5\t1\t0\t0\t0\t0\tpython\n", List.of(p(0, 10, "C", 0.05, 0.01, "python"))),
                arguments("the header printed again mid-stream", HEAD + "0 10 C 5 1 0 0 0 0 a\n" + HEAD + "0 10 C 6 1 0 0 0 0 a\n",
                        List.of(p(0, 10, "C", 0.05, 0.01, "a"), p(0, 10, "C", 0.06, 0.01, "a"))),
                arguments("header only", HEAD, List.of()),
                arguments("no final newline and CRLF", HEAD.replace("\n", "\r\n") + "0 10 C 5 1 0 0 0 0 a", List.of(p(0, 10, "C", 0.05, 0.01, "a"))),
                arguments("date and time columns (-o DT)", "#Date       Time        gpu        pid  type    sm   mem   enc   dec   command\n"
                        + "#YYYYMMDD   HH:MM:SS    Idx          #   C/G     %     %     %     %   name\n"
                        + " 20260703   22:22:01      0      18434     C    94    47     0     0   python\n",
                        List.of(new ProcessUtilization(0, 18434, "C", 0.94, 0.47, "python", Instant.parse("2026-07-03T20:22:01Z")))),
                arguments("time column only (-o T) takes the day the body arrived", "#Time        gpu        pid  type    sm   mem   command\n"
                        + " 23:59:59      0      18434     C    94    47   python\n",
                        List.of(new ProcessUtilization(0, 18434, "C", 0.94, 0.47, "python", Instant.parse("2026-07-03T21:59:59Z")))),
                arguments("time column only, earlier the same local day", "#Time        gpu        pid  type    sm   mem   command\n"
                        + " 00:10:00      0      18434     C    94    47   python\n",
                        List.of(new ProcessUtilization(0, 18434, "C", 0.94, 0.47, "python", Instant.parse("2026-07-03T22:10:00Z")))),
                arguments("no command column", "# gpu pid type sm mem\n0 10 C 5 1\n", List.of(p(0, 10, "C", 0.05, 0.01, null))),
                arguments("no sm column (memory-only pmon)", "# gpu pid type fb command\n0 10 C 1024 python\n", List.of(p(0, 10, "C", null, null, "python"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void parses(String name, String body, List<ProcessUtilization> expected) {
        assertEquals(expected, NvidiaSmiPmon.parse(body, ZoneId.of("Europe/Berlin"), RECEIVED));
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                arguments("empty body", "", 1, "empty body"),
                arguments("blank body", "\n \n", 1, "empty body"),
                arguments("rows without a header", "    0      12267     C     97     41      0      0      0      0    gpu_burn\n", 1, "data before the header"),
                arguments("only comments", "# nvidia-smi pmon\n# nothing\n", 1, "no header line"),
                arguments("a row before the header", "0 1 C 1 1 0 0 0 0 a\n" + HEAD, 1, "data before the header"),
                arguments("a short row", HEAD + "0 10 C 5\n", 3, "expected 10 columns as in the header, found 4"),
                arguments("a long row without a command column", "# gpu pid type sm mem\n0 10 C 5 1 extra\n", 2, "expected 5 columns"),
                arguments("a column twice", "# gpu pid sm sm command\n", 1, "column sm appears twice"),
                arguments("command not last", "# gpu pid command sm\n", 1, "command must be the last"),
                arguments("a word for sm", HEAD + "0 10 C high 1 0 0 0 0 a\n", 3, "sm \"high\" is not a percentage"),
                arguments("negative sm", HEAD + "0 10 C -5 1 0 0 0 0 a\n", 3, "sm \"-5\" is not a percentage"),
                arguments("sm above 100", HEAD + "0 10 C 101 1 0 0 0 0 a\n", 3, "sm \"101\" is not a percentage"),
                arguments("NaN mem", HEAD + "0 10 C 1 NaN 0 0 0 0 a\n", 3, "mem \"NaN\" is not a percentage"),
                arguments("a word for the pid", HEAD + "0 ten C 1 1 0 0 0 0 a\n", 3, "pid \"ten\" is not a process id"),
                arguments("pid 0", HEAD + "0 0 C 1 1 0 0 0 0 a\n", 3, "pid \"0\" is not a process id"),
                arguments("a GPU index of -", HEAD + "- 10 C 1 1 0 0 0 0 a\n", 3, "gpu \"-\" is not a GPU index"),
                arguments("a negative GPU index", HEAD + "-1 10 C 1 1 0 0 0 0 a\n", 3, "gpu \"-1\" is not a GPU index"),
                arguments("a bad GPU index on an idle row", HEAD + "x - - - - - - - - -\n", 3, "gpu \"x\" is not a GPU index"),
                arguments("a bad date", "#Date Time gpu pid type sm mem command\n20261341 10:00:00 0 1 C 1 1 a\n", 2, "are not YYYYMMDD and HH:MM:SS"),
                arguments("a bad time", "#Date Time gpu pid type sm mem command\n20260703 25:00:00 0 1 C 1 1 a\n", 2, "are not YYYYMMDD and HH:MM:SS"),
                arguments("a giant line", HEAD + "0 10 C 1 1 0 0 0 0 " + "a".repeat(70_000) + "\n", 3, "longer than"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refuses(String name, String body, int line, String reason) {
        UsageParseException e = assertThrows(UsageParseException.class,
                () -> NvidiaSmiPmon.parse(body, ZoneOffset.UTC, RECEIVED));
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.reason().contains(reason), e.getMessage());
    }

    @Test
    void readsTheIdleH200AsNoProcesses() {
        assertEquals(List.of(), NvidiaSmiPmon.parse(Fixtures.h200("idle :: pmon (per-process monitor)"), ZoneOffset.UTC,
                RECEIVED));
    }

    @Test
    void readsTheLoadedMigEnabledH200WithoutUtilization() {
        List<ProcessUtilization> rows = NvidiaSmiPmon.parse(Fixtures.h200("load :: pmon (per-process monitor)"),
                ZoneOffset.UTC, RECEIVED);
        assertEquals(15, rows.size());
        assertEquals(List.of(p(0, 12249, "C", null, null, "memhog"), p(0, 12250, "C", null, null, "memhog"),
                p(0, 12267, "C", null, null, "gpu_burn")), rows.subList(0, 3));
        assertTrue(rows.stream().allMatch(r -> r.smRatio() == null && r.memRatio() == null));
    }

    @Test
    void refusesDmonOutput() {
        UsageParseException e = assertThrows(UsageParseException.class, () -> NvidiaSmiPmon.parse(
                Fixtures.h200("load :: dmon (per-device monitor, incl. PCIe rx/tx)"), ZoneOffset.UTC, RECEIVED));
        assertEquals(3, e.line());
        assertTrue(e.reason().contains("data before the header"), e.getMessage());
    }
}
