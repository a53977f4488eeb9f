package io.gpumeter.launcher.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimulateCommandTest {

    @TempDir
    Path dir;

    @Test
    void theSameSeedAndEndGiveTheSameBytesOnStandardOutputAndInAFile() throws IOException {
        Run printed = Run.of("simulate", "--seed", "7", "--end", "2026-11-30T12:00:00Z");
        assertEquals(0, printed.exitCode(), printed.err());
        assertTrue(printed.out().startsWith("{"), printed.out().substring(0, Math.min(200, printed.out().length())));
        assertTrue(printed.err().contains("events") && printed.err().contains("2026-11-30T12:00:00Z"), printed.err());

        Path file = dir.resolve("history.ndjson");
        Run written = Run.of("simulate", "--seed=7", "--end=2026-11-30T12:00:00Z", "--out", file.toString(), "--build");
        assertEquals(0, written.exitCode(), written.err());
        assertEquals("", written.out());
        assertEquals(printed.out(), Files.readString(file));
        assertTrue(written.err().contains("written to " + file.toAbsolutePath()), written.err());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "seed not a number       | --seed seven              | Invalid value for option '--seed': must be a whole number, got 'seven'",
            "end without a time      | --end 2026-11-30          | Invalid value for option '--end': must be an RFC 3339 instant like 2026-11-30T12:00:00Z, got '2026-11-30'",
            "out without a file      | --out                     | Missing required parameter for option '--out'",
            "an unknown option       | --gpus 8                  | unknown option '--gpus'",
            "a stray word            | 42                        | unexpected argument '42'",
    })
    void refuses(String name, String line, String message) {
        Run run = Run.of(Run.concat(new String[] {"simulate"}, Run.words(line)));
        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().startsWith("gpumeter simulate: " + message), run.toString());
        assertTrue(run.err().strip().endsWith("See './gpumeter simulate --help'."), run.toString());
        assertEquals("", run.out());
    }
}
