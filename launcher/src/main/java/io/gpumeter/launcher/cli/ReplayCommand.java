package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.replay.ReplayClient;
import io.gpumeter.launcher.replay.RequestCutter;
import io.gpumeter.launcher.suite.Service;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code replay}: a recorded stream of watch events sent to the collector in requests it takes. */
@Command(name = "replay", sortOptions = false,
        description = {"Sends a stream of Kubernetes watch events (NDJSON, as 'simulate' prints them or "
                + "kubectl get --raw '/api/v1/pods?watch=1' records them) to the collector, cut between lines into "
                + "requests it takes, several at a time: a first install on a large cluster, or the events of an outage.",
                "Each request is stored whole or not at all, and what was stored before counts as duplicates, so a "
                        + "replay that stopped can be run again from the start. The first refusal stops it, naming the "
                        + "line of the stream; a request the collector cannot take now (503) is sent again."})
public final class ReplayCommand implements Callable<Integer> {

    /** The collector's own caps are 50,000 lines and 64 MiB a request. */
    static final int MAX_LINES = 50_000;
    /** Below the collector's 64 MiB: a month's replay is about 1.5 KB a line, so 40,000 lines make about 58 MiB. */
    public static final int MAX_BYTES = 60 << 20;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "FILE", description = "The stream (default: standard input, also '-').")
    String file;

    @Option(names = "--collector", paramLabel = "URL", description = "The collector (default the local one, "
            + "http://127.0.0.1:" + 8081 + ").")
    URI collector;

    @Option(names = "--cluster", paramLabel = "NAME", description = "The cluster the events are from (default: the "
            + "collector's own).")
    String cluster;

    @Option(names = "--token-file", paramLabel = "FILE", description = "A bearer token allowed to ingest (admin or "
            + "service). Default: GPUMETER_TOKEN, else one signed with the local run's key (--state-dir) if it has one.")
    Path tokenFile;

    @Option(names = "--lines", paramLabel = "N", converter = Converters.WholeNumber.class, defaultValue = "40000",
            description = "Lines per request (default ${DEFAULT-VALUE}, at most " + MAX_LINES + ").")
    long lines;

    @Option(names = "--in-flight", paramLabel = "N", converter = Converters.WholeNumber.class, defaultValue = "2",
            description = "Requests sent at once (default ${DEFAULT-VALUE}: the collector reads one while the "
                    + "ledger stores the other; each starts once the one before it has been sent whole).")
    long inFlight;

    @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = ".gpumeter",
            description = "The local run's state directory, whose keys/ sign a token (default ${DEFAULT-VALUE}).")
    Path stateDir;

    @Mixin
    StandardOptions standard;

    private final Map<String, String> env;

    public ReplayCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (lines < 1 || lines > MAX_LINES) {
            throw new UsageException("--lines must be between 1 and " + MAX_LINES);
        }
        if (inFlight < 1 || inFlight > 8) {
            throw new UsageException("--in-flight must be between 1 and 8");
        }
        ServiceCall.requireCluster(cluster);
        URI endpoint = URI.create(ServiceCall.base(collector, Service.COLLECTOR) + "/api/v1/ingest/kubernetes"
                + (cluster == null ? "" : "?cluster=" + URLEncoder.encode(cluster, StandardCharsets.UTF_8)));
        PrintWriter out = spec.commandLine().getOut();
        Optional<String> token = ServiceCall.token(tokenFile, env, stateDir, "replay", List.of("admin"));
        ReplayClient client = new ReplayClient(endpoint, token, (int) inFlight, 5, Duration.ofSeconds(1), stored -> {
            out.printf("request %d, lines %,d–%,d: %,d events, %,d stored, %,d duplicates, %,d skipped, %.1f s%n",
                    stored.request().index(), stored.request().firstLine(),
                    stored.request().firstLine() + stored.request().lines() - 1, stored.events(), stored.accepted(),
                    stored.duplicates(), stored.skipped(), stored.seconds());
            out.flush();
        });
        long start = System.nanoTime();
        ReplayClient.Outcome outcome;
        try (InputStream in = file == null || file.equals("-") ? System.in : Files.newInputStream(CallerPaths.resolve(Path.of(file)))) {
            outcome = client.replay(new RequestCutter(in, (int) lines, MAX_BYTES));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf("%,d events in %d requests, %.1f s: %,.0f events/s%n", outcome.events(), outcome.stored().size(),
                seconds, outcome.events() / Math.max(seconds, 1e-9));
        out.flush();
        if (outcome.refused().isEmpty()) {
            return 0;
        }
        PrintWriter err = spec.commandLine().getErr();
        outcome.refused().forEach(r -> err.println(r.reason()));
        err.println("Nothing of a refused request is stored. Mend the stream and replay it again: what is already "
                + "stored counts as duplicates.");
        err.flush();
        return 1;
    }
}
