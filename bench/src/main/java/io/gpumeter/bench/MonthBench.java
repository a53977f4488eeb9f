package io.gpumeter.bench;

import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.gpumeter.launcher.suite.SuiteBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Builds a month for a fleet of GPUs in a fresh ledger, then prints how long the monthly CSV takes, billing-service's
 * peak memory meanwhile, Q1's latency percentiles, and each service's resident memory 45 s after it all. After the
 * load it explains the used-hours and GPU-hours queries of one tenant's month, prints their plans, and exits non-zero
 * if a fact table is read by a sequential scan there. Usage: {@code bench/run [gpus] [q1-queries] [--pods=N]
 * [--jvm=default|"OPTIONS"] [--ledger-jvm="OPTIONS"] [--jfr]} ({@code --jvm=default}: the launcher's own options, each
 * service its own; {@code --ledger-jvm}: the ledger's alone; {@code --jfr} records the ledger while the Q1 queries run)
 * (defaults 10000, 2000, and the pods a month of 1-minute to 4-day holds makes: about 262,000 for 10,000 GPUs).
 */
public final class MonthBench {

    private static final Instant MONTH_START = Instant.parse("2026-05-01T00:00:00Z");
    private static final Instant MONTH_END = Instant.parse("2026-06-01T00:00:00Z");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private String authorization;

    private final boolean jfr;

    private MonthBench(boolean jfr) {
        this.jfr = jfr;
    }

    /** The monthly CSV should take at most this long at 10,000 GPUs and 1,000,000 pods. */
    private static final double TARGET_SECONDS = 5.0;

    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        long pods = 0;
        List<String> jvm = List.of("-XX:+UseParallelGC", "-Xmx2g");
        List<String> ledgerJvm = null;
        boolean jfr = false;
        for (String arg : args) {
            if (arg.startsWith("--jvm=")) { // the services' JVM options; "default" for the launcher's own, per service
                String given = arg.substring("--jvm=".length()).trim();
                jvm = given.equals("default") ? null : List.of(given.split("\\s+"));
            } else if (arg.startsWith("--ledger-jvm=")) { // the ledger's alone, the others' as --jvm says
                ledgerJvm = List.of(arg.substring("--ledger-jvm=".length()).trim().split("\\s+"));
            } else if (arg.equals("--jfr")) {
                jfr = true;
            } else if (arg.startsWith("--pods=")) {
                pods = Long.parseLong(arg.substring("--pods=".length()).replace("_", ""));
            } else {
                positional.add(arg);
            }
        }
        int gpus = positional.size() > 0 ? Integer.parseInt(positional.get(0)) : 10_000;
        int queries = positional.size() > 1 ? Integer.parseInt(positional.get(1)) : 2_000;
        long targetPods = pods;
        Path root = Path.of("").toAbsolutePath();
        Path state = root.resolve("bench/target/run");
        List<String> planProblems;
        SuiteBuilder builder = Suite.builder(root).services(Set.of(Service.LEDGER, Service.BILLING)).freePorts()
                .embeddedDatabase(state.resolve("pgdata")).freshDatabase(true).stateDirectory(state)
                .logDirectory(state.resolve("logs")).readyTimeout(Duration.ofMinutes(3));
        if (jvm != null) {
            builder.jvmOptions(jvm);
        }
        if (ledgerJvm != null) {
            builder.jvmOptions(Service.LEDGER, ledgerJvm);
        }
        try (Suite suite = builder.build().start()) {
            planProblems = new MonthBench(jfr).run(suite, root, gpus, queries, targetPods);
        }
        if (!planProblems.isEmpty()) {
            System.err.println("plan check FAILED: a fact table is read by a sequential scan for one tenant's month:");
            planProblems.forEach(p -> System.err.println("  " + p));
            System.exit(1);
        }
        System.out.println("plan check passed: no fact table is read by a sequential scan for one tenant's month");
    }

    /** Runs the benchmark; answers the problems the plan check found in the hot queries (empty when none). */
    private List<String> run(Suite suite, Path root, int gpus, int queries, long targetPods) throws Exception {
        authorization = "Bearer " + suite.adminToken();
        for (Service s : suite.config().services()) {
            System.out.println(s.module() + "'s JVM options: " + String.join(" ", suite.config().jvmOptions(s)));
        }
        System.out.printf("gpumeter month benchmark: %,d GPUs%s, month 2026-05, %d cores, java %s%n", gpus,
                targetPods > 0 ? String.format(", about %,d pods", targetPods) : "",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        double scale = targetPods > 0 ? FleetMonth.scaleFor(gpus, targetPods, MONTH_START, MONTH_END) : 1.0;
        FleetMonth fleet = new FleetMonth(gpus, MONTH_START, MONTH_END, 42, scale);
        long[] facts = {0};
        FactPoster poster = new FactPoster(suite.url(Service.LEDGER), authorization);
        long t0 = System.nanoTime();
        fleet.emit(20_000, batch -> {
            poster.post(batch);
            facts[0] += batch.size();
        });
        double ingestSeconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("ingest: %,d pods, %,d facts in %.1f s (%,.0f facts/s, derivation included)%n",
                fleet.pods(), facts[0], ingestSeconds, facts[0] / ingestSeconds);

        // The hot queries of one tenant's month must reach the tenant's rows through indexes, not whole tables.
        List<String> planProblems = new QueryPlans(root, suite.database().orElseThrow())
                .check("tenant-0", MONTH_START, MONTH_END);

        URI csv = suite.url(Service.BILLING).resolve("/api/v1/reports/monthly?month=2026-05&format=csv");
        URI hours = suite.url(Service.LEDGER).resolve("/api/v1/gpu-hours?from=2026-05-01T00:00:00Z&to=2026-06-01T00:00:00Z&groupBy=tenant,model");
        Optional<ProcessMemory> memory = ProcessMemory.watch("billing-service", suite.managementUrl(Service.BILLING));
        double median = timeRepeated("monthly CSV (billing, via ledger)", csv, 5);
        memory.ifPresentOrElse(m -> {
            System.out.printf("billing-service memory during the CSV runs: %s%n", m.summary());
            m.close();
        }, () -> System.out.println("billing-service memory: its process was not found"));
        System.out.printf("monthly CSV target <= %.0f s: %s (median %.3f s)%n", TARGET_SECONDS,
                median <= TARGET_SECONDS ? "met" : "NOT met", median);
        timeRepeated("GPU-hours by tenant,model (ledger)", hours, 5);

        try (Q1Latency q1 = new Q1Latency(suite, authorization)) {
            q1.run(fleet.hamiUuids(), MONTH_START, MONTH_END, queries, jfr ? root.resolve("bench/target/run/jfr/ledger-q1.jfr") : null);
        }
        System.out.printf("database size: %s%n", databaseSize(suite));
        SettledMemory.report(suite);
        return planProblems;
    }

    /** Runs a GET {@code runs} times, prints first, median and best; answers the median in seconds. */
    private double timeRepeated(String what, URI uri, int runs) {
        List<Double> seconds = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            HttpResponse<String> response = get(uri);
            seconds.add((System.nanoTime() - start) / 1e9);
            if (response.statusCode() != 200) {
                throw new IllegalStateException(what + " answered " + response.statusCode() + ": " + response.body());
            }
            bytes = response.body().length();
        }
        List<Double> sorted = seconds.stream().sorted().toList();
        System.out.printf("%s: first %.3f s, median %.3f s, best %.3f s over %d runs (%,d bytes)%n", what, seconds.get(0),
                sorted.get(sorted.size() / 2), sorted.get(0), runs, bytes);
        return sorted.get(sorted.size() / 2);
    }

    private HttpResponse<String> get(URI uri) {
        try {
            return http.send(HttpRequest.newBuilder(uri)
                    .header("Authorization", authorization).timeout(Duration.ofMinutes(10)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String databaseSize(Suite suite) throws IOException {
        Path data = suite.embeddedDatabase().map(db -> db.dataDirectory()).orElse(null);
        if (data == null) {
            return "external";
        }
        try (var files = Files.walk(data)) {
            long bytes = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
            return String.format("%,d MiB on disk", bytes >> 20);
        }
    }
}
