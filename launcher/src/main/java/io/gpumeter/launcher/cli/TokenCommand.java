package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.suite.ConsoleLinks;
import io.gpumeter.launcher.suite.LocalKeys;
import io.gpumeter.launcher.suite.Service;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code token}: a token the local run's services accept, signed with its key. */
@Command(name = "token", sortOptions = false,
        description = "Prints a bearer token signed with the local run's key (.gpumeter/keys, made by the first "
                + "'up' or by this command).")
public final class TokenCommand implements Callable<Integer> {

    private static final Set<String> ROLES = Set.of("admin", "operator", "reader", "service", "ingest");

    @Spec
    CommandSpec spec;

    @Option(names = "--groups", required = true, paramLabel = "GROUP[,GROUP...]", description = "The roles, "
            + "comma-separated: admin, operator, reader, service, tenant:<name>, or ingest (node pushers), "
            + "which stands alone.")
    String groups;

    @Option(names = "--audience", paramLabel = "SERVICE[,SERVICE...]", description = "For a service token, and "
            + "required with it: the services it may call, of collector, ledger, slo, alert, billing; the others "
            + "refuse it.")
    String audience;

    @Option(names = "--ttl", paramLabel = "DURATION", converter = Converters.Ttl.class, defaultValue = "PT24H",
            description = "How long it is valid, an ISO-8601 duration (default ${DEFAULT-VALUE}, at most P30D).")
    Duration ttl;

    @Option(names = "--subject", paramLabel = "NAME", defaultValue = "cli",
            description = "Who it names (default ${DEFAULT-VALUE}).")
    String subject;

    @Option(names = "--console", arity = "0..1", paramLabel = "URL", fallbackValue = "",
            description = "Print a link that signs this token into the console at URL (default the local one, "
                    + "http://127.0.0.1:8086) instead of the token; the token rides in the link's #fragment, which "
                    + "browsers never send to a server, and the console shows whose token it is before a click signs it in.")
    String console;

    @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = ".gpumeter",
            description = "The state directory holding keys/ (default ${DEFAULT-VALUE}).")
    Path stateDir;

    @Mixin
    StandardOptions standard;

    @Override
    public Integer call() {
        List<String> roles = list(groups);
        if (roles.isEmpty()) {
            throw new UsageException("--groups names no group, e.g. --groups tenant:acme");
        }
        for (String g : roles) {
            if (!ROLES.contains(g) && !(g.startsWith("tenant:") && g.length() > "tenant:".length())) {
                throw new UsageException("unknown group '" + g
                        + "': use admin, operator, reader, service, ingest or tenant:<name>");
            }
        }
        if (roles.contains("ingest") && roles.size() > 1) {
            throw new UsageException("ingest stands alone: a node pusher's token holds no other group");
        }
        List<String> audiences = audience(audience == null ? List.of() : list(audience), roles);
        Path state = stateDir.toAbsolutePath().normalize();
        String token = LocalKeys.in(state).token(subject, roles, audiences, ttl);
        spec.commandLine().getOut().println(console == null ? token : ConsoleLinks.withToken(consoleUrl(console), token));
        return 0;
    }

    private static URI consoleUrl(String given) {
        if (given.isBlank()) {
            return ConsoleLinks.LOCAL;
        }
        try {
            URI url = new URI(given.strip());
            if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme()) || url.getHost() == null) {
                throw new URISyntaxException(given, "not an http(s) address");
            }
            return url;
        } catch (URISyntaxException e) {
            throw new UsageException("--console must be the console's http(s) address, e.g. http://127.0.0.1:8086, got '" + given + "'");
        }
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

    private static List<String> list(String text) {
        return Arrays.stream(text.split(",")).map(String::strip).filter(g -> !g.isEmpty()).toList();
    }
}
