package io.gpumeter.launcher.cli;

import io.gpumeter.common.security.Tokens;
import io.gpumeter.launcher.suite.LocalKeys;
import io.gpumeter.launcher.suite.Service;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * {@code token --groups G[,G…] [--audience S[,S…]] [--ttl PT24H] [--subject S]}: a token the local run's services
 * accept.
 */
public final class TokenCommand {

    private static final String USAGE = """
            gpumeter token --groups admin|operator|reader|service|ingest|tenant:<name>[,…] [--audience SVC[,…]]
                           [--ttl PT24H] [--subject NAME]
              Prints a bearer token signed with the local run's key (.gpumeter/keys, made by the first 'up').
              --groups    the roles, comma-separated; ingest (node pushers) stands alone
              --audience  for a service token (required with service): the services it may call, of
                          collector, ledger, slo, alert, billing; the others refuse it
              --ttl       how long it is valid, an ISO-8601 duration (default PT24H, at most P30D)
              --subject   who it names (default: cli)
              --state-dir the state directory holding keys/ (default: .gpumeter)""";

    private static final Set<String> ROLES = Set.of("admin", "operator", "reader", "service", "ingest");

    private TokenCommand() {
    }

    public static String usage() {
        return USAGE;
    }

    public static int run(List<String> args, PrintStream out) {
        Arguments a = Arguments.parse(args, Set.of(), Set.of("groups", "audience", "ttl", "subject", "state-dir"));
        List<String> groups = list(a.value("groups")
                .orElseThrow(() -> new UsageException("--groups is required, e.g. --groups tenant:acme")));
        for (String g : groups) {
            if (!ROLES.contains(g) && !(g.startsWith("tenant:") && g.length() > "tenant:".length())) {
                throw new UsageException("unknown group '" + g
                        + "': use admin, operator, reader, service, ingest or tenant:<name>");
            }
        }
        if (groups.isEmpty()) {
            throw new UsageException("--groups names no group");
        }
        if (groups.contains("ingest") && groups.size() > 1) {
            throw new UsageException("ingest stands alone: a node pusher's token holds no other group");
        }
        List<String> audience = audience(a.value("audience").map(TokenCommand::list).orElse(List.of()), groups);
        Duration ttl = ttl(a.value("ttl").orElse("PT24H"));
        Path state = a.path("state-dir").orElse(Path.of(".gpumeter")).toAbsolutePath().normalize();
        out.println(LocalKeys.in(state).token(a.value("subject").orElse("cli"), groups, audience, ttl));
        return 0;
    }

    /** The services a service token is addressed to: required for one, meaningless for other tokens. */
    private static List<String> audience(List<String> given, List<String> groups) {
        if (!groups.contains("service")) {
            if (!given.isEmpty()) {
                throw new UsageException("--audience is for service tokens; people's and ingest tokens need none");
            }
            return given;
        }
        if (given.isEmpty()) {
            throw new UsageException("a service token needs --audience, the services it calls (e.g. --audience ledger,slo "
                    + "for the collector); each service refuses a service token not addressed to it");
        }
        try {
            return given.stream().map(Service::parse).map(Service::id).distinct().toList();
        } catch (IllegalArgumentException e) {
            throw new UsageException("--audience: " + e.getMessage());
        }
    }

    static Duration ttl(String text) {
        Duration ttl;
        try {
            ttl = Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new UsageException("--ttl must be an ISO-8601 duration such as PT24H or P7D");
        }
        if (ttl.isNegative() || ttl.toMinutes() < 1) {
            throw new UsageException("--ttl must be at least one minute");
        }
        if (ttl.compareTo(Tokens.MAX_LIFETIME) > 0) {
            throw new UsageException("--ttl " + text + " is longer than the services accept: at most P"
                    + Tokens.MAX_LIFETIME.toDays() + "D (gpumeter.auth.max-token-lifetime). Sign a new token before "
                    + "this one expires instead.");
        }
        return ttl;
    }

    private static List<String> list(String text) {
        return Arrays.stream(text.split(",")).map(String::strip).filter(g -> !g.isEmpty()).toList();
    }
}
