package io.gpumeter.bench;

import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.gpumeter.launcher.suite.SuiteBuilder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * A fleet's usage, sustained: every node's dcgm-exporter ({@link ExporterFleet}: the GPU Operator's default series and
 * the profiling counters, with pod labels) scraped by the collector on its interval, through the collector into the
 * ledger's rollups, for as long as asked. It prints the lag from scrape to books ({@link IntakeLag}) after a warm-up
 * and minute by minute (a growing backlog shows as a growing lag), the share of scrape rounds that fit their
 * interval, the CPU each process spent per 1,000 GPUs per minute, the tables' growth per day at that scale, and the
 * floor: a raw COPY of as many values on the same database in the same run. With {@code --collectors=2} a second
 * collector shares the exporters (each scrapes the nodes its shard owns); the run then checks that the ledger holds
 * exactly the values of the pages served, none twice.
 * Usage: {@code bench/run usage [gpus] [seconds] [--interval=10s] [--warm-up=60] [--collectors=1] [--parallel=16]
 * [--in-flight=2] [--jvm="OPTIONS"]} (defaults 2,000 GPUs for 120 s after a 60 s warm-up, the launcher's JVM options).
 */
public final class UsageBench {

    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        Duration interval = Duration.ofSeconds(10);
        int warmUp = 60;
        int collectors = 1;
        int parallel = 16;
        int inFlight = 2;
        List<String> jvm = null; // the launcher's own, each service its own
        for (String arg : args) {
            if (arg.startsWith("--interval=")) {
                interval = Duration.parse("PT" + arg.substring("--interval=".length()).toUpperCase());
            } else if (arg.startsWith("--warm-up=")) {
                warmUp = Integer.parseInt(arg.substring("--warm-up=".length()));
            } else if (arg.startsWith("--collectors=")) {
                collectors = Integer.parseInt(arg.substring("--collectors=".length()));
            } else if (arg.startsWith("--parallel=")) {
                parallel = Integer.parseInt(arg.substring("--parallel=".length()));
            } else if (arg.startsWith("--in-flight=")) {
                inFlight = Integer.parseInt(arg.substring("--in-flight=".length()));
            } else if (arg.startsWith("--jvm=")) {
                jvm = List.of(arg.substring("--jvm=".length()).trim().split("\\s+"));
            } else {
                positional.add(arg);
            }
        }
        if (collectors < 1 || collectors > 2) {
            throw new IllegalArgumentException("--collectors is 1 or 2, got " + collectors);
        }
        int gpus = positional.isEmpty() ? 2_000 : Integer.parseInt(positional.get(0).replace("_", ""));
        int seconds = positional.size() < 2 ? 120 : Integer.parseInt(positional.get(1));
        int nodes = (gpus + DcgmPage.GPUS_PER_NODE - 1) / DcgmPage.GPUS_PER_NODE;
        System.out.printf("gpumeter usage benchmark: %,d GPUs on %,d nodes, %d series each, scraped every %d s by %d collector(s),"
                        + " %d at a time, %d usage deliveries in flight, %d s after a %d s warm-up, %d cores%n",
                nodes * DcgmPage.GPUS_PER_NODE, nodes, DcgmPage.seriesPerGpu(), interval.toSeconds(), collectors, parallel,
                inFlight, seconds, warmUp,
                Runtime.getRuntime().availableProcessors());
        System.out.println("services' JVM options: " + (jvm == null ? "the launcher's, each service its own" : String.join(" ", jvm)));
        Path root = Path.of("").toAbsolutePath();
        Path state = root.resolve("bench/target/usage-run");
        try (ExporterFleet fleet = new ExporterFleet(nodes)) {
            Path targets = writeTargets(state, fleet.targets());
            SuiteBuilder first = collectorEnv(Suite.builder(root).services(Set.of(Service.LEDGER, Service.COLLECTOR)),
                    targets, interval, parallel, inFlight, collectors, 0)
                    .freePorts().embeddedDatabase(state.resolve("pgdata")).freshDatabase(true)
                    .stateDirectory(state).logDirectory(state.resolve("logs")).readyTimeout(Duration.ofMinutes(3));
            if (jvm != null) {
                first.jvmOptions(jvm);
            }
            try (Suite suite = first.build().start(); Suite second = collectors == 2 ? secondCollector(root, state, suite,
                    targets, interval, parallel, inFlight, jvm) : null) {
                new UsageRun(suite, second, fleet, state.resolve("pgdata"), nodes * DcgmPage.GPUS_PER_NODE, interval)
                        .run(warmUp, seconds);
            }
        }
    }

    /** A collector of its own, shard 1 of 2, delivering to the first suite's ledger with the first suite's keys. */
    private static Suite secondCollector(Path root, Path state, Suite suite, Path targets, Duration interval, int parallel,
                                         int inFlight, List<String> jvm) throws Exception {
        Path b = state.resolve("b");
        Files.createDirectories(b.resolve("keys"));
        try (var keys = Files.list(state.resolve("keys"))) {
            for (Path key : keys.toList()) {
                Files.copy(key, b.resolve("keys").resolve(key.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        DatabaseConnection db = suite.database().orElseThrow();
        return collectorEnv(Suite.builder(root).services(Set.of(Service.COLLECTOR)), targets, interval, parallel, inFlight,
                2, 1)
                .env(Service.COLLECTOR, "QUARKUS_REST_CLIENT_LEDGER_URL", suite.url(Service.LEDGER).toString())
                .freePorts().jvmOptions(jvm != null ? jvm : io.gpumeter.launcher.suite.JvmDefaults.of(Service.COLLECTOR))
                .externalDatabase(db).stateDirectory(b).logDirectory(b.resolve("logs"))
                .readyTimeout(Duration.ofMinutes(3)).build().start();
    }

    private static SuiteBuilder collectorEnv(SuiteBuilder b, Path targets, Duration interval, int parallel, int inFlight,
                                             int shards, int index) {
        return b.env(Service.COLLECTOR, "GPUMETER_COLLECTOR_WATCH_ENABLED", "false")
                .env(Service.COLLECTOR, "QUARKUS_CONFIG_LOCATIONS", targets.toUri().toString())
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_DCGM_SCRAPE_INTERVAL", interval.toSeconds() + "s")
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_DCGM_PARALLEL_SCRAPES", Integer.toString(parallel))
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_DELIVERY_USAGE_IN_FLIGHT", Integer.toString(inFlight))
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_DCGM_SHARDS", Integer.toString(shards))
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_DCGM_SHARD_INDEX", Integer.toString(index));
    }

    /** The exporters as a properties file the collectors read ({@code gpumeter.collector.dcgm.targets.<node>}). */
    private static Path writeTargets(Path state, Map<String, String> targets) throws Exception {
        Files.createDirectories(state);
        Properties p = new Properties();
        targets.forEach((node, url) -> p.setProperty("gpumeter.collector.dcgm.targets." + node, url));
        Path file = state.resolve("dcgm-targets.properties");
        try (var out = Files.newBufferedWriter(file)) {
            p.store(out, "the bench's exporters");
        }
        return file;
    }

    /** Waits for a figure to stop moving for {@code still}; false when it still moved after {@code atMost}. */
    static boolean awaitSteady(java.util.function.LongSupplier figure, Duration still, Duration atMost)
            throws InterruptedException {
        long end = System.nanoTime() + atMost.toNanos();
        long last = figure.getAsLong();
        long since = System.nanoTime();
        while (System.nanoTime() < end) {
            Thread.sleep(500);
            long now = figure.getAsLong();
            if (now != last) {
                last = now;
                since = System.nanoTime();
            } else if (System.nanoTime() - since >= still.toNanos()) {
                return true;
            }
        }
        return false;
    }
}
