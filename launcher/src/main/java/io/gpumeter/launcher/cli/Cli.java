package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.suite.SuiteException;
import picocli.CommandLine;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** The command line of {@code ./gpumeter}: its commands, and how a wrong command line or a failure is answered. */
public final class Cli {

    /** Wide enough that paths such as .gpumeter/demo/pgdata are not broken at their dot. */
    private static final int USAGE_WIDTH = 110;

    private Cli() {
    }

    /** Runs one command line; the exit code is 0, 1 when the command failed, 2 when the command line was wrong. */
    public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        return commandLine(env, out, err).execute(args);
    }

    public static CommandLine commandLine(Map<String, String> env, PrintStream out, PrintStream err) {
        CommandLine cli = new CommandLine(new GpumeterCommand(), new Factory(env, out));
        // An argument starting with @ is a value like any other, never a file of arguments.
        cli.setExpandAtFiles(false);
        cli.setUsageHelpWidth(USAGE_WIDTH);
        cli.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        cli.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        cli.setParameterExceptionHandler(Cli::wrongCommandLine);
        cli.setExecutionExceptionHandler(Cli::failed);
        return cli;
    }

    private static int wrongCommandLine(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        String reason = e.getMessage();
        List<String> suggestions = List.of();
        if (e instanceof UnmatchedArgumentException unmatched) {
            suggestions = unmatched.getSuggestions();
            String first = unmatched.getUnmatched().isEmpty() ? "" : unmatched.getUnmatched().get(0);
            // the first one only: what follows an unknown option may well be its value
            if (first.startsWith("-")) {
                reason = "unknown option '" + first + "'";
            } else if (command.getParent() == null) {
                reason = "unknown command '" + first + "' (try: " + String.join(", ", command.getSubcommands().keySet()) + ")";
            } else {
                reason = "unexpected argument '" + first + "'";
            }
        }
        return usageError(command, reason, suggestions);
    }

    private static int failed(Exception e, CommandLine command, ParseResult parsed) {
        if (e instanceof UsageException) {
            return usageError(command, e.getMessage(), List.of());
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return 130;
        }
        PrintWriter err = command.getErr();
        boolean explained = e instanceof SuiteException || e instanceof IllegalArgumentException
                || e instanceof IllegalStateException;
        err.println(command.getCommandSpec().qualifiedName() + ": " + (explained ? e.getMessage() : e.toString()));
        return 1;
    }

    /** One line saying what was wrong, one saying where the options are described; exit code 2. */
    private static int usageError(CommandLine command, String reason, List<String> suggestions) {
        PrintWriter err = command.getErr();
        String name = command.getCommandSpec().qualifiedName();
        err.println(name + ": " + reason);
        String hint = suggestions.isEmpty() ? "" : "Did you mean " + String.join(" or ", suggestions) + "? ";
        err.println(hint + "See './" + name + " --help'.");
        return command.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** Makes the commands that need the environment or a byte stream; picocli makes the rest. */
    private record Factory(Map<String, String> env, PrintStream out) implements IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            if (type == UpCommand.class) {
                return type.cast(new UpCommand(env, out));
            }
            if (type == ReplayCommand.class) {
                return type.cast(new ReplayCommand(env));
            }
            if (type == TriageCommand.class) {
                return type.cast(new TriageCommand(env));
            }
            return CommandLine.defaultFactory().create(type);
        }
    }
}
