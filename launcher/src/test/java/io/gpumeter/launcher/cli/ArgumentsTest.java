package io.gpumeter.launcher.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArgumentsTest {

    private static final Set<String> FLAGS = Set.of("demo", "fresh");
    private static final Set<String> OPTIONS = Set.of("seed", "end", "db-url", "base-port");

    private static Arguments parse(String line) {
        List<String> args = line.isBlank() ? List.of() : Arrays.asList(line.trim().split(" "));
        return Arguments.parse(args, FLAGS, OPTIONS);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "flags and a spaced value  | --demo --seed 7                     | true  | 7",
            "equals form               | --seed=11 --fresh                   | false | 11",
            "nothing                   | ' '                                 | false | 42",
    })
    void accepts(String name, String line, boolean demo, long seed) {
        Arguments a = parse(line);
        assertEquals(demo, a.flag("demo"));
        assertEquals(seed, a.longValue("seed", 42));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "unknown option            | --colour red             | unknown option --colour",
            "flag given a value        | --demo=yes               | unknown option --demo",
            "option without value      | --seed                   | --seed needs a value",
            "bare word                 | up                       | unexpected argument 'up'",
            "seed not a number         | --seed x                 | --seed must be a whole number",
            "end not RFC 3339          | --end 2026-11-30         | --end must be an RFC 3339 instant",
            "port out of range         | --base-port 70000        | --base-port must be between 0 and 65535",
    })
    void refuses(String name, String line, String message) {
        UsageException e = assertThrows(UsageException.class, () -> {
            Arguments a = parse(line);
            a.longValue("seed", 0);
            a.instant("end");
            a.intValue("base-port", 0);
        });
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"end | --end 2026-11-30T12:00:00Z | 2026-11-30T12:00:00Z"})
    void readsInstants(String name, String line, String expected) {
        assertEquals(Instant.parse(expected), parse(line).instant("end").orElseThrow());
    }
}
