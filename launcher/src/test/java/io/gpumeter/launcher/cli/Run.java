package io.gpumeter.launcher.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/** One run of the command line as {@code ./gpumeter} makes it: its exit code and what it printed. */
record Run(int exitCode, String out, String err) {

    static Run of(String... args) {
        return of(Map.of(), args);
    }

    static Run of(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run(args, env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The arguments of a table row: words split at spaces, none for a blank cell. */
    static String[] words(String line) {
        return line == null || line.isBlank() ? new String[0] : line.strip().split(" +");
    }

    static String[] concat(String[] first, String... then) {
        String[] all = Arrays.copyOf(first, first.length + then.length);
        System.arraycopy(then, 0, all, first.length, then.length);
        return all;
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out\n" + out + "\n--- err\n" + err;
    }
}
