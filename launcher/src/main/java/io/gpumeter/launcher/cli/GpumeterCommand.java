package io.gpumeter.launcher.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code gpumeter}: the commands of the local suite; without one, the usage and exit code 2. */
@Command(name = "gpumeter", sortOptions = false, synopsisSubcommandLabel = "COMMAND",
        description = "Runs gpumeter's five services on this machine, simulates a GPU fleet, replays recorded watch events, "
                + "signs tokens for them and triages what is unwell.",
        subcommands = {UpCommand.class, SimulateCommand.class, ReplayCommand.class, TriageCommand.class,
                TokenCommand.class, JwksCommand.class, CompletionCommand.class, HelpCommand.class},
        footerHeading = "%n",
        footer = {"'./gpumeter help COMMAND' or './gpumeter COMMAND --help' describes every option of a command.",
                "./gpumeter builds what is missing first (--build rebuilds), then runs the launcher, whose JVM takes",
                "the options in GPUMETER_JAVA_OPTS."})
public final class GpumeterCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return spec.exitCodeOnInvalidInput();
    }
}
