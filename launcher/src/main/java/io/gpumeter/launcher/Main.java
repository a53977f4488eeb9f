package io.gpumeter.launcher;

import io.gpumeter.launcher.cli.JwksCommand;
import io.gpumeter.launcher.cli.SimulateCommand;
import io.gpumeter.launcher.cli.TokenCommand;
import io.gpumeter.launcher.cli.UpCommand;
import io.gpumeter.launcher.cli.UsageException;
import io.gpumeter.launcher.suite.SuiteException;

import java.util.Arrays;
import java.util.List;

/** Entry point of {@code ./gpumeter}: {@code up} runs the suite, {@code simulate} prints a fleet history,
 * {@code token} signs a token for the local run, {@code jwks} makes the key set of a signing-key rotation. */
public final class Main {

    private static final String USAGE = """
            usage: gpumeter <command> [options]

            commands:
            %s

            %s

            %s

            %s
            """;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        if (args.length == 0 || List.of("help", "--help", "-h").contains(args[0])) {
            System.out.printf(USAGE, indent(UpCommand.usage()), indent(SimulateCommand.usage()), indent(TokenCommand.usage()),
                    indent(JwksCommand.usage()));
            return args.length == 0 ? 2 : 0;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        try {
            return switch (args[0]) {
                case "up" -> UpCommand.run(rest, System.getenv(), System.out);
                case "simulate" -> SimulateCommand.run(rest, System.out, System.err);
                case "token" -> TokenCommand.run(rest, System.out);
                case "jwks" -> JwksCommand.run(rest, System.out);
                default -> throw new UsageException("unknown command '" + args[0] + "' (try: up, simulate, token, jwks, help)");
            };
        } catch (UsageException e) {
            System.err.println("gpumeter: " + e.getMessage());
            return 2;
        } catch (SuiteException | IllegalArgumentException | IllegalStateException e) {
            System.err.println("gpumeter: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        } catch (Exception e) {
            System.err.println("gpumeter: " + e);
            return 1;
        }
    }

    private static String indent(String text) {
        return text.lines().map(l -> "  " + l).reduce((x, y) -> x + "\n" + y).orElse("");
    }
}
