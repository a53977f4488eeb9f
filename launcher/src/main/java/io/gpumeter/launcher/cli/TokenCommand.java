package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.suite.LocalKeys;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/** {@code token --groups G[,G…] [--ttl PT24H] [--subject S]}: a token the local run's services accept. */
public final class TokenCommand {

    private static final String USAGE = """
            gpumeter token --groups admin|operator|reader|service|tenant:<name>[,…] [--ttl PT24H] [--subject NAME]
              Prints a bearer token signed with the local run's key (.gpumeter/keys, made by the first 'up').
              --groups    the roles, comma-separated
              --ttl       how long it is valid, an ISO-8601 duration (default PT24H)
              --subject   who it names (default: cli)
              --state-dir the state directory holding keys/ (default: .gpumeter)""";

    private static final Set<String> ROLES = Set.of("admin", "operator", "reader", "service");

    private TokenCommand() {
    }

    public static String usage() {
        return USAGE;
    }

    public static int run(List<String> args, PrintStream out) {
        Arguments a = Arguments.parse(args, Set.of(), Set.of("groups", "ttl", "subject", "state-dir"));
        List<String> groups = Arrays.stream(a.value("groups")
                        .orElseThrow(() -> new UsageException("--groups is required, e.g. --groups tenant:acme")).split(","))
                .map(String::strip).filter(g -> !g.isEmpty()).toList();
        for (String g : groups) {
            if (!ROLES.contains(g) && !(g.startsWith("tenant:") && g.length() > "tenant:".length())) {
                throw new UsageException("unknown group '" + g + "': use admin, operator, reader, service or tenant:<name>");
            }
        }
        if (groups.isEmpty()) {
            throw new UsageException("--groups names no group");
        }
        Duration ttl;
        try {
            ttl = Duration.parse(a.value("ttl").orElse("PT24H"));
        } catch (DateTimeParseException e) {
            throw new UsageException("--ttl must be an ISO-8601 duration such as PT24H or P7D");
        }
        if (ttl.isNegative() || ttl.toMinutes() < 1) {
            throw new UsageException("--ttl must be at least one minute");
        }
        Path state = a.path("state-dir").orElse(Path.of(".gpumeter")).toAbsolutePath().normalize();
        out.println(LocalKeys.in(state).token(a.value("subject").orElse("cli"), groups, ttl));
        return 0;
    }
}
