package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.suite.LocalKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JwksCommandTest {

    @TempDir
    Path dir;

    @Test
    void printsOneKeyPerFile() throws IOException {
        Path old = Files.writeString(dir.resolve("old.pem"), LocalKeys.in(dir.resolve("old")).publicKeyPem());
        Path next = Files.writeString(dir.resolve("new.pem"), LocalKeys.in(dir.resolve("new")).publicKeyPem());
        Run run = Run.of("jwks", old.toString(), next.toString());
        assertEquals(0, run.exitCode(), run.toString());
        assertEquals(2, run.out().split("\"kid\"", -1).length - 1, run.out());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no file                 | ''                | Missing required parameter: 'PUBLIC.pem'",
            "a file that is not      | missing.pem       | missing.pem is not a file",
            "a file with no key      | notes.txt         | notes.txt holds no RSA public key in PEM",
            "an unknown option       | --kid x           | unknown option '--kid'",
    })
    void refuses(String name, String line, String message) throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "no key here");
        String[] args = Run.words(line);
        for (int i = 0; i < args.length; i++) {
            args[i] = args[i].startsWith("-") ? args[i] : dir.resolve(args[i]).toString();
        }
        Run run = Run.of(Run.concat(new String[] {"jwks"}, args));
        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().startsWith("gpumeter jwks: "), run.toString());
        assertTrue(run.err().contains(message), run.toString());
        assertEquals("", run.out());
    }
}
