package io.gpumeter.common.shell;

import java.util.regex.Pattern;

/**
 * The words of a POSIX shell command line written for a person to run, such as the curl lines of an acceptance pack.
 * Text is single-quoted, so nothing in it ({@code $(...)}, a backtick, {@code ;}, {@code |}, a newline) means
 * anything to the shell; the only thing the shell expands is a variable the writer names itself.
 */
public final class ShellWords {

    private static final Pattern VARIABLE = Pattern.compile("[A-Z_][A-Z0-9_]*");

    /**
     * What {@link #quote} and {@link #variable} build, joined by spaces, with bare words of characters that mean
     * nothing to the shell (no {@code ~}, glob, quote, {@code $} or separator).
     */
    private static final Pattern QUOTED_LINE = Pattern.compile(
            "(?:[A-Za-z0-9_./:=@%+,-]|'[^']*'|\\\\'|\"\\$[A-Z_][A-Z0-9_]*\"| )*+");

    private ShellWords() {
    }

    /** {@code text} as one literal word: single-quoted, a quote inside written as {@code '\''}. */
    public static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /** A reference to the environment variable {@code name}, double-quoted so its value stays one word. */
    public static String variable(String name) {
        if (!VARIABLE.matcher(name).matches()) {
            throw new IllegalArgumentException("an environment variable's name is upper-case letters, digits and _");
        }
        return "\"$" + name + "\"";
    }

    /** Whether {@code line} is made only of words these methods build, so running it runs one command as written. */
    public static boolean onlyQuoted(String line) {
        return QUOTED_LINE.matcher(line).matches();
    }
}
