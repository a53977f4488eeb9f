package io.gpumeter.launcher.cli;

import picocli.CommandLine.Option;

/** What every command takes besides its own options: its help, and the {@code ./gpumeter} script's {@code --build}. */
public final class StandardOptions {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    // The script acts on it and drops it; the launcher accepts it so that its help can say what it does.
    @Option(names = "--build", description = "Rebuild first: ./gpumeter builds the launcher again (for up, the "
            + "services too) before running the command. Without it, only what is missing is built.")
    boolean build;
}
