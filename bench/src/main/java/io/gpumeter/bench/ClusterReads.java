package io.gpumeter.bench;

import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reads of one cluster that must not slow down as other clusters join its ledger, each timed the same way in
 * every phase: a tenant's month from the ledger and its monthly CSV from billing (with the tenant's own token; the
 * bench's tenants are each one cluster's), the Fleet page's layout read cut to the cluster (its first page of nodes,
 * as the console asks for it), and Q1 over the cluster's cards ({@link Q1Latency}). The fleet-wide CSV is timed beside
 * them: it grows with the fleet, as it should, and is printed for scale, not compared.
 */
final class ClusterReads {

    /**
     * Untimed runs of each read first, at least {@link #WARM_UP_RUNS} and until {@link #WARM_UP_TIME} is spent (the
     * JIT compiles a read's loops after a few runs, PostgreSQL caches its pages), then the timed ones: the first phase
     * must not be measured on a colder ledger than the second.
     */
    private static final int WARM_UP_RUNS = 3;
    private static final Duration WARM_UP_TIME = Duration.ofSeconds(5);
    private static final int RUNS = 11;
    private static final int ROUNDS = 3;
    private static final int Q1_ROUNDS = 2;
    /** The instant the Fleet page shows: mid-month, when every slot has held pods for two weeks. */
    static final Instant FLEET_AT = Instant.parse("2026-05-15T12:00:00Z");
    private static final Pattern TOTAL_NODES = Pattern.compile("\"totalNodes\"\\s*:\\s*(\\d+)");

    /**
     * One phase's figures: each read's median and best in seconds, Q1's percentiles in milliseconds, and the answers to
     * compare the phases by.
     */
    record Figures(Timed tenantMonth, Timed tenantCsv, Timed layout, Timed fleetCsv, double q1p50, double q1p99,
                   int layoutNodes) {
    }

    /** A read's median and best of {@link #RUNS} in seconds, and its last answer. */
    record Timed(double median, double best, String body) {
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Suite suite;
    private final String cluster;
    private final String tenant;
    private final String tenantToken;
    private final String adminToken;

    ClusterReads(Suite suite, String cluster, String tenant) {
        this.suite = suite;
        this.cluster = cluster;
        this.tenant = tenant;
        this.tenantToken = "Bearer " + suite.token("bench-" + tenant, List.of("tenant:" + tenant), Duration.ofDays(1));
        this.adminToken = "Bearer " + suite.adminToken();
    }

    /**
     * Settles the database, then times every read in {@link #ROUNDS} rounds and Q1 in {@link #Q1_ROUNDS}, keeping each
     * read's quickest round (by its median) and Q1's lower p50 and p99 of its rounds: other processes on a shared
     * machine load it in bursts of minutes, which one round would take for the ledger's own figure. Q1 asks for
     * {@code month}'s HAMi cards over [from, to).
     */
    Figures measure(String phase, FleetMonth month, Instant from, Instant to, int queries) {
        System.out.printf("---- %s: the reads of %s ----%n", phase, cluster);
        Q1Latency.settle(suite);
        String t = query(tenant);
        URI ledger = suite.url(Service.LEDGER);
        URI billing = suite.url(Service.BILLING);
        String yearMonth = from.toString().substring(0, 7);
        URI tenantMonth = ledger.resolve("/api/v1/gpu-hours?from=" + from + "&to=" + to
                + "&groupBy=namespace,model,day&tenant=" + t);
        URI tenantCsv = billing.resolve("/api/v1/reports/monthly?month=" + yearMonth + "&format=csv&tenant=" + t);
        URI layout = ledger.resolve("/api/v1/fleet/occupants?layout=true&at=" + FLEET_AT + "&cluster=" + query(cluster)
                + "&limit=50&offset=0");
        URI fleetCsv = billing.resolve("/api/v1/reports/monthly?month=" + yearMonth + "&format=csv");
        Timed[] best = new Timed[4];
        for (int round = 1; round <= ROUNDS; round++) {
            System.out.printf("  round %d of %d%n", round, ROUNDS);
            Timed[] now = {time("a tenant's month (ledger GPU-hours by namespace, model and day)", tenantToken, tenantMonth),
                    time("the tenant's monthly CSV (billing, via the ledger)", tenantToken, tenantCsv),
                    time("the Fleet page's layout of the cluster (first 50 nodes)", adminToken, layout),
                    time("the fleet-wide monthly CSV (every cluster; grows with the fleet)", adminToken, fleetCsv)};
            for (int i = 0; i < best.length; i++) {
                best[i] = best[i] == null || now[i].median() < best[i].median() ? now[i] : best[i];
            }
        }
        double p50 = Double.MAX_VALUE;
        double p99 = Double.MAX_VALUE;
        try (Q1Latency latency = new Q1Latency(suite, adminToken)) {
            for (int round = 1; round <= Q1_ROUNDS; round++) {
                Histogram h = latency.run(month.hamiUuids(), from, to, queries, null);
                p50 = Math.min(p50, h.getValueAtPercentile(50) / 1000.0);
                p99 = Math.min(p99, h.getValueAtPercentile(99) / 1000.0);
            }
        }
        Matcher nodes = TOTAL_NODES.matcher(best[2].body());
        return new Figures(best[0], best[1], best[2], best[3], p50, p99,
                nodes.find() ? Integer.parseInt(nodes.group(1)) : -1);
    }

    private Timed time(String what, String authorization, URI uri) {
        String body = null;
        long warmUntil = System.nanoTime() + WARM_UP_TIME.toNanos();
        for (int i = 0; i < WARM_UP_RUNS || System.nanoTime() < warmUntil; i++) {
            body = get(uri, authorization);
        }
        List<Double> seconds = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            long start = System.nanoTime();
            body = get(uri, authorization);
            seconds.add((System.nanoTime() - start) / 1e9);
        }
        List<Double> sorted = seconds.stream().sorted().toList();
        double median = sorted.get(sorted.size() / 2);
        System.out.printf("  %-75s median %.4f s, best %.4f s, worst %.4f s over %d runs (%,d bytes)%n", what, median,
                sorted.get(0), sorted.get(sorted.size() - 1), RUNS, body.length());
        return new Timed(median, sorted.get(0), body);
    }

    private String get(URI uri, String authorization) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).header("Authorization", authorization)
                    .timeout(Duration.ofMinutes(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(uri + " answered " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
