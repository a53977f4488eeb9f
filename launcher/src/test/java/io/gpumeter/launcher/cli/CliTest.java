package io.gpumeter.launcher.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The command line as a whole: its help, its refusals, and its completion script. */
class CliTest {

    private static final List<String> COMMANDS = List.of("up", "simulate", "replay", "triage", "token", "jwks", "completion", "help");

    private static CommandLine cli() {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return Cli.commandLine(Map.of(), sink, sink);
    }

    static List<String> commands() {
        return COMMANDS;
    }

    @Test
    void theCommandsAreTheOnesDocumented() {
        assertEquals(COMMANDS, List.copyOf(cli().getSubcommands().keySet()));
    }

    @ParameterizedTest(name = "{0} --help")
    @MethodSource("commands")
    void everyCommandsHelpExitsZeroAndNamesEveryOption(String command) {
        Run run = Run.of(command, "--help");
        assertEquals(0, run.exitCode(), run.toString());
        assertEquals("", run.err());
        assertTrue(run.out().contains("Usage: gpumeter " + command), run.out());
        for (OptionSpec option : cli().getSubcommands().get(command).getCommandSpec().options()) {
            if (!option.hidden()) {
                assertTrue(run.out().contains(option.longestName()), command + " --help names " + option.longestName()
                        + "\n" + run.out());
                assertFalse(String.join(" ", option.description()).isBlank(), option.longestName() + " is described");
            }
        }
        assertEquals(run.out(), Run.of("help", command).out(), "help " + command + " says the same");
    }

    @Test
    void upsHelpNamesEveryOptionAndTheEnvironment() {
        String help = Run.of("up", "--help").out();
        for (String option : List.of("--demo", "--fresh", "--root", "--listen", "--base-port", "--db-url", "--db-user",
                "--db-password-file", "--data-dir", "--db-port", "--cluster", "--seed", "--end", "--log-dir",
                "--timeout", "--build", "--help")) {
            assertTrue(help.contains(option + " ") || help.contains(option + "="), option + "\n" + help);
        }
        for (String variable : List.of("GPUMETER_DB_URL", "GPUMETER_DB_USER", "GPUMETER_DB_PASSWORD")) {
            assertTrue(help.contains(variable), variable + "\n" + help);
        }
        assertFalse(help.contains("--db-password "), "the refused option is not offered\n" + help);
        assertTrue(help.replaceAll("\\s+", " ").contains("(default 8080: 8081-8087 and 9081-9087)"), help);
    }

    @Test
    void theTopLevelHelpListsEveryCommand() {
        for (String args : List.of("--help", "-h", "help")) {
            Run run = Run.of(args);
            assertEquals(0, run.exitCode(), run.toString());
            for (String command : COMMANDS) {
                assertTrue(run.out().contains("  " + command + " "), command + "\n" + run.out());
            }
        }
    }

    @Test
    void noCommandIsAUsageError() {
        Run run = Run.of();
        assertEquals(2, run.exitCode());
        assertTrue(run.err().startsWith("Usage: gpumeter"), run.err());
    }

    @Test
    void anUnknownCommandIsNamedWithTheKnownOnes() {
        Run run = Run.of("upp", "--demo");
        assertEquals(2, run.exitCode(), run.toString());
        List<String> lines = run.err().strip().lines().toList();
        assertEquals("gpumeter: unknown command 'upp' (try: up, simulate, replay, triage, token, jwks, completion, help)", lines.get(0));
        assertTrue(lines.get(1).endsWith("See './gpumeter --help'."), lines.get(1));
        Run help = Run.of("help", "upp");
        assertEquals(2, help.exitCode(), help.toString());
    }

    @Test
    void aMistypedOptionIsAnsweredWithTheNearestOne() {
        Run run = Run.of("up", "--demos");
        assertEquals(2, run.exitCode(), run.toString());
        assertEquals(List.of("gpumeter up: unknown option '--demos'", "Did you mean --demo? See './gpumeter up --help'."),
                run.err().strip().lines().toList());
    }

    @Test
    void theCompletionScriptNamesEveryCommandAndOption() {
        Run run = Run.of("completion");
        assertEquals(0, run.exitCode(), run.toString());
        String script = run.out();
        assertTrue(script.contains("complete -F _complete_gpumeter"), script);
        for (String command : COMMANDS) {
            assertTrue(script.matches("(?s).*\\b" + command + "\\b.*"), command);
        }
        for (String option : List.of("--demo", "--db-password-file", "--groups", "--audience", "--ttl", "--seed", "--out")) {
            assertTrue(script.contains(option), option);
        }
        assertFalse(script.matches("(?s).*--db-password(?!-file).*"), "the refused option is not completed");
    }

    @Test
    void theCompletionScriptCompletesCommandsAndOptionsInBash() throws Exception {
        Path bash = Path.of("/bin/bash");
        assumeTrue(Files.isExecutable(bash), "bash is not installed");
        Path script = Files.createTempFile("gpumeter-completion", ".bash");
        try {
            Files.writeString(script, Run.of("completion").out());
            assertEquals("up", complete(bash, script, "gpumeter u"));
            assertTrue(complete(bash, script, "./gpumeter up --db-").contains("--db-password-file"));
            assertTrue(complete(bash, script, "gpumeter token --").contains("--audience"));
        } finally {
            Files.delete(script);
        }
    }

    /** What bash offers for the last word of {@code line}, as the completion function answers it. */
    private static String complete(Path bash, Path script, String line) throws IOException, InterruptedException {
        String shell = "source '" + script + "' 2>/dev/null; COMP_LINE='" + line + "'; COMP_WORDS=(" + line + "); "
                + "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_POINT=${#COMP_LINE}; "
                + "_complete_gpumeter gpumeter 2>/dev/null; echo \"${COMPREPLY[*]}\"";
        Process p = new ProcessBuilder(bash.toString(), "--norc", "-c", shell).redirectErrorStream(true).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "bash answered");
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }
}
