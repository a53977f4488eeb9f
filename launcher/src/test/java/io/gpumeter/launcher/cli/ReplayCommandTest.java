package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.replay.StandInCollector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplayCommandTest {

    @TempDir
    Path dir;

    @RegisterExtension
    final StandInCollector collector = StandInCollector.started();

    Path stream(String name, int lines) throws IOException {
        return Files.writeString(dir.resolve(name), StandInCollector.stream(lines));
    }

    @Test
    void aStreamGoesInRequestsWithTheTokenAndClusterGivenAndItsTotalsArePrinted() throws IOException {
        Path file = stream("month.ndjson", 2_500);
        // each request holds one line the collector had already
        collector.stores(1, 1_000, 1);
        collector.stores(1_001, 1_000, 1);
        collector.stores(2_001, 500, 1);
        Run run = Run.of(Map.of("GPUMETER_TOKEN", "abc"), "replay", file.toString(), "--collector", collector.base() + "/",
                "--cluster", "east-1", "--lines", "1000");
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("request 1, lines 1–1,000: 1,000 events, 999 stored, 1 duplicates, 0 skipped"), run.out());
        assertTrue(run.out().contains("request 3, lines 2,001–2,500: 500 events, 499 stored, 1 duplicates, 0 skipped"), run.out());
        assertTrue(run.out().contains("2,500 events in 3 requests"), run.out());
        assertEquals(List.of("Bearer abc", "Bearer abc", "Bearer abc"), collector.authorizations());
        assertEquals(List.of("cluster=east-1", "cluster=east-1", "cluster=east-1"), collector.queries());
    }

    @Test
    void aRelativeFileIsTheCallersAndARefusalExitsOneNamingTheLineOfTheStream() throws IOException {
        stream("outage.ndjson", 3_000);
        collector.stores(1, 1_000, 0);
        collector.refuses(1_001);
        System.setProperty(CallerPaths.PROPERTY, dir.toString());
        try {
            Run run = Run.of(Map.of(), "replay", "outage.ndjson", "--collector", collector.base(), "--lines", "1000",
                    "--in-flight", "1", "--state-dir", dir.resolve("none").toString());
            assertEquals(1, run.exitCode(), run.toString());
            assertTrue(run.err().contains("request 2 (lines 1001–2000) refused with HTTP 400, at line 1003 of the stream"), run.err());
            assertTrue(run.err().contains("what is already stored counts as duplicates"), run.err());
            assertTrue(run.out().contains("1,000 events in 1 requests"), run.out());
            assertEquals(List.of("null"), collector.authorizations().subList(0, 1), "no token given, none at hand: none sent");
            assertEquals("null", collector.queries().get(0), "no cluster given: the collector's own");
        } finally {
            System.clearProperty(CallerPaths.PROPERTY);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no lines             | --lines 0       | --lines must be between 1 and 50000",
            "too many lines       | --lines 60000   | --lines must be between 1 and 50000",
            "too many in flight   | --in-flight 9   | --in-flight must be between 1 and 8",
            "a bad cluster name   | --cluster East  | --cluster must be a DNS label",
            "lines not a number   | --lines many    | Invalid value for option '--lines': must be a whole number, got 'many'",
    })
    void refuses(String name, String line, String message) {
        Run run = Run.of(Run.concat(new String[] {"replay", "-"}, Run.words(line)));
        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().startsWith("gpumeter replay: " + message), run.toString());
        assertEquals(0, collector.calls().size());
    }
}
