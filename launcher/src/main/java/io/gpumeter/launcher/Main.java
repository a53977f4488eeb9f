package io.gpumeter.launcher;

import io.gpumeter.launcher.cli.Cli;

/**
 * Entry point of {@code ./gpumeter}: {@code up} runs the suite, {@code simulate} prints a fleet history,
 * {@code token} signs a token for the local run, {@code jwks} makes the key set of a signing-key rotation,
 * {@code completion} prints a shell completion script, {@code help} describes them.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(Cli.run(args, System.getenv(), System.out, System.err));
    }
}
