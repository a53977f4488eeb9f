package io.gpumeter.bench;

import io.gpumeter.launcher.cli.ReplayCommand;
import io.gpumeter.launcher.kube.SimulatedApiServer;
import io.gpumeter.launcher.replay.ReplayClient;
import io.gpumeter.launcher.replay.RequestCutter;
import io.gpumeter.launcher.suite.JvmDefaults;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.gpumeter.launcher.suite.SuiteBuilder;

import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Freshness under load: how soon a pod the watched API server shows as scheduled is in Q1's answer for its card, while
 * a month's replay of another cluster goes through the same collector into the same ledger. The collector watches a
 * simulated API server (the demo's); pods are written into it at a steady rate, bound to a card of their own,
 * Running, PodScheduled since the moment they are written; Q1 is polled for each pod's card ({@link FreshnessProbe}).
 * The same number of pods is first measured with nothing else running: the floor, in the same run.
 * Usage: {@code bench/run freshness [gpus] [--pods=N] [--live-pods=N] [--rate=N] [--poll-ms=N] [--env=NAME=VALUE]
 * [--jfr]} (the replayed month's fleet, default 2,000 GPUs and 100,000 pods; 100 live pods per round at 5 a second,
 * polled every 20 ms; {@code --env} sets the collector's environment, e.g. its delivery settings, and may be repeated;
 * {@code --jfr} records both services with Flight Recorder under bench/target/freshness/jfr).
 */
public final class FreshnessBench {

    private static final String CLUSTER = "live";
    private static final String REPLAYED = "replayed";
    private static final Instant MONTH_START = Instant.parse("2026-05-01T00:00:00Z");
    private static final Instant MONTH_END = Instant.parse("2026-06-01T00:00:00Z");
    private static final int WARM_UP_PODS = 20;
    private static final int LINES = 40_000;

    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        long replayPods = 100_000;
        int livePods = 100;
        double rate = 5;
        int pollMs = 20;
        Map<String, String> env = new LinkedHashMap<>();
        boolean profile = false;
        for (String arg : args) {
            if (arg.startsWith("--pods=")) {
                replayPods = Long.parseLong(arg.substring("--pods=".length()).replace("_", ""));
            } else if (arg.startsWith("--live-pods=")) {
                livePods = Integer.parseInt(arg.substring("--live-pods=".length()));
            } else if (arg.startsWith("--rate=")) {
                rate = Double.parseDouble(arg.substring("--rate=".length()));
            } else if (arg.startsWith("--poll-ms=")) {
                pollMs = Integer.parseInt(arg.substring("--poll-ms=".length()));
            } else if (arg.equals("--jfr")) {
                profile = true;
            } else if (arg.startsWith("--env=") && arg.indexOf('=', 6) > 6) {
                int eq = arg.indexOf('=', 6);
                env.put(arg.substring(6, eq), arg.substring(eq + 1));
            } else {
                positional.add(arg);
            }
        }
        int gpus = positional.isEmpty() ? 2_000 : Integer.parseInt(positional.get(0));
        Path state = Path.of("").toAbsolutePath().resolve("bench/target/freshness");
        System.out.printf("gpumeter freshness benchmark: %d live pods a round at %.1f/s, Q1 polled every %d ms; the "
                        + "replay: a month of %,d GPUs, about %,d pods, requests of %,d lines; %d cores, java %s%n",
                livePods, rate, pollMs, gpus, replayPods, LINES, Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
        FleetMonth month = new FleetMonth(gpus, MONTH_START, MONTH_END, 42,
                FleetMonth.scaleFor(gpus, replayPods, MONTH_START, MONTH_END));
        List<Path> requests = WatchLines.writeRequests(state.resolve("requests"), month, LINES);
        List<String> recording = new ArrayList<>();
        if (profile) { // one recording per service process, named after its process id, for `jfr print`
            Files.createDirectories(state.resolve("jfr"));
            recording.add("-XX:StartFlightRecording=settings=profile,filename=" + state.resolve("jfr") + "/,dumponexit=true");
        }
        try (SimulatedApiServer api = SimulatedApiServer.start()) {
            SuiteBuilder builder = Suite.builder(Path.of("").toAbsolutePath())
                    .services(Set.of(Service.LEDGER, Service.COLLECTOR)).freePorts()
                    .jvmOptions(Service.LEDGER, JvmDefaults.plus(Service.LEDGER, recording))
                    .jvmOptions(Service.COLLECTOR, JvmDefaults.plus(Service.COLLECTOR, recording))
                    .embeddedDatabase(state.resolve("pgdata")).freshDatabase(true).stateDirectory(state)
                    .logDirectory(state.resolve("logs")).readyTimeout(Duration.ofMinutes(3))
                    .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_CLUSTER", CLUSTER)
                    .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_WATCH_ENABLED", "true")
                    .env(Service.COLLECTOR, "QUARKUS_KUBERNETES_CLIENT_API_SERVER_URL", api.url())
                    .env(Service.COLLECTOR, "QUARKUS_KUBERNETES_CLIENT_TRUST_CERTS", "true");
            env.forEach((name, value) -> builder.env(Service.COLLECTOR, name, value));
            System.out.println("collector's environment beyond the defaults: " + (env.isEmpty() ? "none" : env));
            try (Suite suite = builder.build().start()) {
                new FreshnessBench().run(suite, api, state, requests, livePods, rate, pollMs);
            }
        }
    }

    private void run(Suite suite, SimulatedApiServer api, Path state, List<Path> requests, int livePods, double rate,
                     int pollMs) throws Exception {
        if (!api.awaitWatches(List.of("pods", "nodes", "namespaces"), Duration.ofSeconds(60))) {
            throw new IllegalStateException("the collector opened no watch of pods, nodes and namespaces within 60 s; see "
                    + suite.logFile(Service.COLLECTOR));
        }
        LiveCluster cluster = new LiveCluster(api.client());
        cluster.seed(WARM_UP_PODS + 2 * livePods);
        ProcessCpu.Group cpu = new ProcessCpu.Group();
        for (Service s : List.of(Service.COLLECTOR, Service.LEDGER)) {
            suite.pid(s).ifPresent(pid -> cpu.addJvm(s.module(), ProcessCpu.of(pid)));
        }
        ProcessCpu.postgres(state.resolve("pgdata")).ifPresent(p -> cpu.add("postgres", p));
        String authorization = "Bearer " + suite.adminToken();
        try (FreshnessProbe probe = new FreshnessProbe(suite.url(Service.LEDGER), authorization,
                Duration.ofMillis(pollMs), Duration.ofSeconds(60))) {
            // the path's classes loaded and compiled once, its connections open: not measured
            probe.run("warm-up", cluster, 0, WARM_UP_PODS, rate);
            FreshnessProbe.Round floor = measured(suite, cpu,
                    () -> probe.run("idle", cluster, WARM_UP_PODS, livePods, rate), livePods);

            ReplayRun replay = new ReplayRun(suite, requests);
            CompletableFuture<ReplayClient.Outcome> replaying = CompletableFuture.supplyAsync(replay::send);
            Thread.sleep(3_000); // the first request read and parsed, about to go to the ledger
            FreshnessProbe.Round loaded = measured(suite, cpu,
                    () -> probe.run("under-replay", cluster, WARM_UP_PODS + livePods, livePods, rate), livePods);
            ReplayClient.Outcome outcome = replaying.join();
            System.out.printf("    the replay began %.1f s before the round; its requests answered (each stored whole) at +s"
                    + " into the round: %s%n", (loaded.startNanos() - replay.startNanos) / 1e9, replay.answered.stream()
                    .filter(t -> t >= loaded.startNanos() && t <= loaded.endNanos())
                    .map(t -> String.format("%.1f", (t - loaded.startNanos()) / 1e9)).collect(Collectors.joining(", ")));
            double seconds = (replay.endNanos - replay.startNanos) / 1e9;
            System.out.printf("replay of cluster %s meanwhile: %,d events in %.1f s (%,.0f events/s), %d requests refused;"
                            + " it %s the last live pod showed%n", REPLAYED, outcome.events(), seconds,
                    outcome.events() / seconds, outcome.refused().size(),
                    replay.endNanos >= loaded.endNanos() ? "was still running when" : "HAD ENDED (too short) before");
            System.out.println();
            System.out.println("from PodScheduled (the pod written) to Q1 naming it, per live pod:");
            System.out.println("  " + floor.summary());
            System.out.println("  " + loaded.summary());
            System.out.printf("  target p50 and p99 <= 1 s under the replay: %s%n",
                    loaded.percentile(0.5) <= 1 && loaded.percentile(0.99) <= 1 && loaded.notShown() == 0 ? "met" : "NOT met");
        }
    }

    /** A round with the machine's load and the suite's CPU over it, and where its pods' time went. */
    private static FreshnessProbe.Round measured(Suite suite, ProcessCpu.Group cpu, Round round, int pods)
            throws Exception {
        MachineLoad machine = MachineLoad.now();
        Map<String, Double> before = cpu.now();
        IntakeTimes intake = IntakeTimes.read(suite.managementUrl(Service.LEDGER));
        FreshnessProbe.Round r = round.run();
        Instant now = Instant.now();
        long nanos = System.nanoTime();
        System.out.printf("round %s (%s to %s): %s%n%s%n", r.label(), now.minusNanos(nanos - r.startNanos()),
                now.minusNanos(nanos - r.endNanos()), MachineLoad.now().since(machine),
                cpu.since(before, r.label() + " round", pods, "live pods"));
        System.out.println("  " + r.summary());
        System.out.println(WatchedAt.split(suite.database().orElseThrow(), CLUSTER, LiveCluster.NAMESPACE, r));
        System.out.println(IntakeTimes.read(suite.managementUrl(Service.LEDGER)).since(intake));
        return r;
    }

    private interface Round {
        FreshnessProbe.Round run() throws Exception;
    }

    /** The month's requests sent to the collector's replay endpoint under another cluster's name, one at a time. */
    private static final class ReplayRun {
        private final Suite suite;
        private final List<Path> requests;
        private volatile long startNanos;
        private volatile long endNanos;
        /** When each request's answer came (System.nanoTime): its bundle committed just before. */
        private final List<Long> answered = new CopyOnWriteArrayList<>();

        ReplayRun(Suite suite, List<Path> requests) {
            this.suite = suite;
            this.requests = requests;
        }

        ReplayClient.Outcome send() {
            startNanos = System.nanoTime();
            List<InputStream> files = new ArrayList<>();
            try {
                for (Path request : requests) {
                    files.add(Files.newInputStream(request));
                }
                ReplayClient client = new ReplayClient(suite.url(Service.COLLECTOR)
                        .resolve("/api/v1/ingest/kubernetes?cluster=" + REPLAYED), Optional.of(suite.adminToken()), 1, 5,
                        Duration.ofSeconds(1), s -> answered.add(System.nanoTime()));
                try (InputStream stream = new SequenceInputStream(Collections.enumeration(files))) {
                    return client.replay(new RequestCutter(stream, LINES, ReplayCommand.MAX_BYTES));
                }
            } catch (Exception e) {
                throw new IllegalStateException("the replay failed", e);
            } finally {
                endNanos = System.nanoTime();
            }
        }
    }
}
