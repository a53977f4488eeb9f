package io.gpumeter.common.shell;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShellWordsTest {

    static final String HOSTILE = "it's \"$(touch canary)\" `touch canary` ; touch canary | touch canary & # \\ ~ *"
            + "\n touch canary $HOME ${HOME} модель ü";

    @Test
    void aQuoteInsideEndsTheQuotingAndOpensItAgain() {
        assertEquals("'it'\\''s'", ShellWords.quote("it's"));
        assertEquals("''", ShellWords.quote(""));
        assertEquals("\"$GPUMETER_TOKEN\"", ShellWords.variable("GPUMETER_TOKEN"));
        assertThrows(IllegalArgumentException.class, () -> ShellWords.variable("X; touch canary"));
    }

    /** The shell itself reads each quoted word back as the text it was made from, and runs nothing else. */
    @ParameterizedTest
    @ValueSource(strings = {"sh", "bash"})
    void theShellReadsTheWordBackUnchanged(String shell, @org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException, InterruptedException {
        Path out = dir.resolve("out");
        Path script = dir.resolve("script.sh");
        Files.writeString(script, "printf '%s\\0' " + ShellWords.quote(HOSTILE) + " "
                + ShellWords.variable("WORD") + ShellWords.quote("-tail") + " > out\n");
        ProcessBuilder run = new ProcessBuilder(shell, script.toString()).directory(dir.toFile())
                .redirectErrorStream(true);
        run.environment().put("WORD", "$(touch canary) `touch canary` it's ");
        Process p = run.start();
        p.getOutputStream().close();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), said);
        // a variable's value is one word, taken as it is
        assertEquals(HOSTILE + "\0$(touch canary) `touch canary` it's -tail\0", Files.readString(out));
        assertEquals(List.of("out", "script.sh"), Files.list(dir).map(f -> f.getFileName().toString()).sorted()
                .toList(), "nothing else ran");
    }

    @Test
    void aLineOfQuotedWordsIsToldFromOneThatIsNot() {
        assertTrue(ShellWords.onlyQuoted("curl -sS -H 'Authorization: Bearer '" + ShellWords.variable("T") + " "
                + ShellWords.quote("http://ledger:8082/api/v1/x?a=b%20c&d=" + HOSTILE)));
        assertTrue(ShellWords.onlyQuoted(ShellWords.quote(HOSTILE)));
        assertFalse(ShellWords.onlyQuoted("curl \"$GPUMETER_SLO/api/v1/latency?service=chat$(touch x)\""));
        assertFalse(ShellWords.onlyQuoted("curl 'a' ; touch x"));
        assertFalse(ShellWords.onlyQuoted("curl 'a'\ntouch x"));
        assertFalse(ShellWords.onlyQuoted("curl 'unclosed"));
        assertFalse(ShellWords.onlyQuoted("curl ~/x"));
        assertFalse(ShellWords.onlyQuoted("curl `x`"));
    }
}
