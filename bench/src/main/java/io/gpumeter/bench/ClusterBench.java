package io.gpumeter.bench;

import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.gpumeter.launcher.suite.SuiteBuilder;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Many clusters in one ledger: loads one cluster's month ({@link FleetMonth}, its own tenants and uids) and times its
 * reads ({@link ClusterReads}), loads the other clusters' months (each its own seed, so its own cards), times the same
 * reads of the first cluster again, and prints both with their ratio against the 1.2× aimed at. Exits non-zero when
 * the answers of the first cluster changed with the others loaded, or when a fact table is read by a sequential scan
 * for the tenant's month. Usage: {@code bench/run clusters [--clusters=20] [--gpus=2000] [--pods=N] [--queries=2000]
 * [--jvm=default|"OPTIONS"]} ({@code --gpus} and {@code --pods} per cluster; the pods default to what a month of
 * 1-minute to 4-day holds makes, about 26 per GPU).
 */
public final class ClusterBench {

    private static final Instant MONTH_START = Instant.parse("2026-05-01T00:00:00Z");
    private static final Instant MONTH_END = Instant.parse("2026-06-01T00:00:00Z");
    /** A read of one cluster may take this much longer with the other clusters loaded. */
    private static final double TARGET_RATIO = 1.2;

    public static void main(String[] args) throws Exception {
        int clusters = 20;
        int gpus = 2_000;
        long pods = 0;
        int queries = 2_000;
        List<String> jvm = List.of("-XX:+UseParallelGC", "-Xmx2g");
        for (String arg : args) {
            String value = arg.substring(arg.indexOf('=') + 1).replace("_", "");
            if (arg.startsWith("--clusters=")) {
                clusters = Integer.parseInt(value);
            } else if (arg.startsWith("--gpus=")) {
                gpus = Integer.parseInt(value);
            } else if (arg.startsWith("--pods=")) {
                pods = Long.parseLong(value);
            } else if (arg.startsWith("--queries=")) {
                queries = Integer.parseInt(value);
            } else if (arg.startsWith("--jvm=")) { // the services' JVM options; "default" for the launcher's own
                jvm = value.trim().equals("default") ? null : List.of(value.trim().split("\\s+"));
            } else {
                throw new IllegalArgumentException("unknown argument " + arg
                        + " (bench/run clusters [--clusters=N] [--gpus=N] [--pods=N] [--queries=N] [--jvm=..])");
            }
        }
        if (clusters < 2 || gpus < 24) {
            throw new IllegalArgumentException("at least 2 clusters of 24 GPUs (three nodes, one per pool)");
        }
        Path root = Path.of("").toAbsolutePath();
        Path state = root.resolve("bench/target/run");
        SuiteBuilder builder = Suite.builder(root).services(Set.of(Service.LEDGER, Service.BILLING)).freePorts()
                .embeddedDatabase(state.resolve("pgdata")).freshDatabase(true).stateDirectory(state)
                .logDirectory(state.resolve("logs")).readyTimeout(Duration.ofMinutes(3));
        if (jvm != null) {
            builder.jvmOptions(jvm);
        }
        List<String> problems;
        try (Suite suite = builder.build().start()) {
            problems = run(suite, root, clusters, gpus, pods, queries);
        }
        if (!problems.isEmpty()) {
            System.err.println("cluster check FAILED:");
            problems.forEach(p -> System.err.println("  " + p));
            System.exit(1);
        }
        System.out.println("cluster check passed: the first cluster's answers did not change, and no fact table is read"
                + " by a sequential scan for its tenant's month");
    }

    private static List<String> run(Suite suite, Path root, int clusters, int gpus, long pods, int queries) throws Exception {
        for (Service s : suite.config().services()) {
            System.out.println(s.module() + "'s JVM options: " + String.join(" ", suite.config().jvmOptions(s)));
        }
        double scale = pods > 0 ? FleetMonth.scaleFor(gpus, pods, MONTH_START, MONTH_END) : 1.0;
        System.out.printf("gpumeter clusters benchmark: %d clusters of %,d GPUs%s, month 2026-05, %d cores, java %s%n",
                clusters, gpus, pods > 0 ? String.format(" and about %,d pods", pods) : "",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        FactPoster poster = new FactPoster(suite.url(Service.LEDGER), "Bearer " + suite.adminToken());
        FleetMonth first = month(0, gpus, scale);
        load(poster, first, name(0));
        ClusterReads reads = new ClusterReads(suite, name(0), first.tenant(0));
        ClusterReads.Figures alone = reads.measure("alone", first, MONTH_START, MONTH_END, queries);

        long t0 = System.nanoTime();
        for (int c = 1; c < clusters; c++) {
            load(poster, month(c, gpus, scale), name(c));
        }
        System.out.printf("the other %d clusters loaded in %.1f s%n", clusters - 1, (System.nanoTime() - t0) / 1e9);
        ClusterReads.Figures among = reads.measure("among " + clusters, first, MONTH_START, MONTH_END, queries);
        // the plans of the tenant's month with every cluster loaded, before the figures, which end the output
        List<String> problems = new ArrayList<>(new QueryPlans(root, suite.database().orElseThrow())
                .check(first.tenant(0), MONTH_START, MONTH_END));

        System.out.printf("%n%s's reads, alone in the ledger and among %d clusters (target: within %.1fx)%n", name(0),
                clusters, TARGET_RATIO);
        timed("a tenant's month (ledger), s", alone.tenantMonth(), among.tenantMonth(), true);
        timed("the tenant's monthly CSV (billing), s", alone.tenantCsv(), among.tenantCsv(), true);
        timed("the Fleet page's layout of the cluster, s", alone.layout(), among.layout(), true);
        row("Q1 p50, ms", alone.q1p50(), among.q1p50(), true);
        row("Q1 p99, ms", alone.q1p99(), among.q1p99(), true);
        timed("the fleet-wide monthly CSV (not compared), s", alone.fleetCsv(), among.fleetCsv(), false);

        if (!alone.tenantMonth().body().equals(among.tenantMonth().body())) {
            problems.add("the tenant's month of " + name(0) + " changed when the other clusters were loaded");
        }
        if (!alone.tenantCsv().body().equals(among.tenantCsv().body())) {
            problems.add("the tenant's monthly CSV of " + name(0) + " changed when the other clusters were loaded");
        }
        if (alone.layoutNodes() != gpus / 8 || among.layoutNodes() != gpus / 8) {
            problems.add("the layout of " + name(0) + " counted " + alone.layoutNodes() + " and then " + among.layoutNodes()
                    + " nodes, not " + gpus / 8);
        }
        return problems;
    }

    /** Cluster {@code c}'s month: its own seed (so its own card UUIDs), its name on its tenants and uids. */
    private static FleetMonth month(int c, int gpus, double scale) {
        return new FleetMonth(name(c) + "-", gpus, MONTH_START, MONTH_END, 42 + c, scale);
    }

    private static String name(int c) {
        return String.format("cluster-%02d", c);
    }

    private static void load(FactPoster poster, FleetMonth month, String cluster) {
        long[] facts = {0};
        long t0 = System.nanoTime();
        month.emit(cluster, 20_000, batch -> {
            poster.post(batch);
            facts[0] += batch.size();
        });
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("%s: %,d pods, %,d facts in %.1f s (%,.0f facts/s)%n", cluster, month.pods(), facts[0], seconds,
                facts[0] / seconds);
    }

    /** A timed read's median, then its best (which the machine's other load disturbs least). */
    private static void timed(String what, ClusterReads.Timed alone, ClusterReads.Timed among, boolean compared) {
        row(what + ", median", alone.median(), among.median(), compared);
        row(what + ", best", alone.best(), among.best(), compared);
    }

    private static void row(String what, double alone, double among, boolean compared) {
        double ratio = among / alone;
        System.out.printf("  %-60s alone %9.4f   among %9.4f   ratio %5.2fx%s%n", what, alone, among, ratio,
                compared ? (ratio <= TARGET_RATIO ? "  within" : "  NOT within") : "");
    }
}
