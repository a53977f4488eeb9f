package io.gpumeter.bench;

import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Sustained usage ingest beside its limit, both measured in the same run. A sample is one field value of one GPU
 * at one timestamp, accepted by the collector (dcgm-exporter text) and reflected in the ledger's minute rollups: the
 * clock stops when the rollups' sample counts add up to every sample pushed, whatever the collector still buffered
 * when the last push was answered. The limit is a raw PostgreSQL COPY of the same samples into a table with the same
 * kind of unique key.
 * Usage: {@code bench/run usage [gpus] [seconds]} (defaults 1000 GPUs, 120 one-second scrapes each).
 */
public final class UsageBench {

    static final String[] FIELDS = {"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_PROF_SM_ACTIVE",
            "DCGM_FI_PROF_SM_OCCUPANCY", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "DCGM_FI_PROF_DRAM_ACTIVE", "DCGM_FI_DEV_FB_USED",
            "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_SM_CLOCK"};
    private static final Instant START = Instant.parse("2026-05-04T00:00:00Z");

    private IngestRun ingest;

    public static void main(String[] args) throws Exception {
        int gpus = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 120;
        try (Suite suite = IngestRun.start("usage-run")) {
            new UsageBench().run(suite, gpus, seconds);
        }
    }

    private void run(Suite suite, int gpus, int seconds) throws Exception {
        ingest = new IngestRun(suite);
        long samples = (long) gpus * FIELDS.length * seconds;
        System.out.printf("gpumeter usage ingest benchmark: %,d GPUs x %d fields x %d s = %,d samples, %d cores%n", gpus,
                FIELDS.length, seconds, samples, Runtime.getRuntime().availableProcessors());
        DatabaseConnection db = suite.database().orElseThrow();
        Instant warmUp = Instant.parse("2026-05-01T00:00:00Z"); // another day
        ingestOnce(suite, gpus, 5, warmUp);
        awaitRollups(db, warmUp, 5, (long) gpus * FIELDS.length * 5);
        URI endpoint = suite.url(Service.COLLECTOR).resolve("/api/v1/ingest/dcgm?node=bench");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        long t0 = System.nanoTime();
        List<Future<Integer>> accepted = new ArrayList<>();
        for (int s = 0; s < seconds; s++) {
            String body = scrape(gpus, START.plusSeconds(s));
            accepted.add(pool.submit(() -> post(endpoint, body)));
        }
        long total = 0;
        for (Future<Integer> f : accepted) {
            total += f.get();
        }
        double pushed = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        if (total != samples) {
            throw new IllegalStateException("the collector accepted " + total + " of " + samples + " samples");
        }
        awaitRollups(db, START, seconds, samples);
        double ingest = (System.nanoTime() - t0) / 1e9;
        System.out.printf("collector answered every push after %.1f s (%,.0f samples/s accepted)%n", pushed, total / pushed);
        System.out.printf("gpumeter ingest: %,d samples in %.1f s = %,.0f samples/s (collector parse + ledger minute rollups"
                + " holding every sample)%n", total, ingest, total / ingest);

        double copy = copyLimit(db, gpus, seconds);
        System.out.printf("PostgreSQL COPY limit: %,d samples in %.1f s = %,.0f samples/s (same samples, unique key, one index)%n",
                samples, copy, samples / copy);
        System.out.printf("ratio: gpumeter ingest reaches %.0f%% of the COPY limit%n", 100 * copy / ingest);
    }

    /** Waits until the ledger's rollups of these seconds count every sample of them. */
    private static void awaitRollups(DatabaseConnection db, Instant start, int seconds, long expected)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             PreparedStatement count = c.prepareStatement("SELECT coalesce(sum(samples), 0) FROM ledger.usage_minute"
                     + " WHERE minute >= ? AND minute < ?")) {
            count.setObject(1, start.atOffset(ZoneOffset.UTC));
            count.setObject(2, start.plusSeconds(seconds + 60L).atOffset(ZoneOffset.UTC)); // the last minute begun
            long counted = 0;
            while (System.nanoTime() < deadline) {
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    counted = rows.getLong(1);
                }
                if (counted == expected) {
                    return;
                }
                if (counted > expected) {
                    throw new IllegalStateException("the rollups count " + counted + " samples of " + expected);
                }
                Thread.sleep(100);
            }
            throw new IllegalStateException("after 10 minutes the rollups count " + counted + " samples of " + expected);
        }
    }

    private void ingestOnce(Suite suite, int gpus, int seconds, Instant start) {
        URI endpoint = suite.url(Service.COLLECTOR).resolve("/api/v1/ingest/dcgm?node=bench");
        for (int s = 0; s < seconds; s++) {
            post(endpoint, scrape(gpus, start.plusSeconds(s)));
        }
    }

    /** One scrape of every GPU at one instant, as a federating exporter would serve it. */
    static String scrape(int gpus, Instant at) {
        StringBuilder body = new StringBuilder(gpus * FIELDS.length * 90);
        long ms = at.toEpochMilli();
        for (String field : FIELDS) {
            for (int g = 0; g < gpus; g++) {
                double value = field.contains("PROF") ? ((g * 7 + ms / 1000) % 100) / 100.0 : (g * 13 + ms / 1000) % 100;
                body.append(field).append("{gpu=\"").append(g % 8).append("\",UUID=\"GPU-bench-").append(g)
                        .append("\",Hostname=\"node-").append(g / 8).append("\"} ").append(value).append(' ').append(ms).append('\n');
            }
        }
        return body.toString();
    }

    /** Posts a scrape and returns how many samples the collector accepted of it. */
    private int post(URI endpoint, String body) {
        String answer = ingest.post(endpoint, body);
        String marker = "\"accepted\":";
        int at = answer.indexOf(marker) + marker.length();
        return Integer.parseInt(answer.substring(at, answer.indexOf(',', at)));
    }

    /** COPYs the same samples, one row each, into a table keyed like the ledger's rows; returns seconds taken. */
    private static double copyLimit(DatabaseConnection db, int gpus, int seconds) throws SQLException, IOException {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE public.bench_copy (cluster text NOT NULL, gpu_uuid text NOT NULL, scope text NOT NULL,"
                    + " scope_key text NOT NULL, field text NOT NULL, at timestamptz NOT NULL, value double precision NOT NULL,"
                    + " PRIMARY KEY (cluster, gpu_uuid, scope, scope_key, field, at))");
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            long t0 = System.nanoTime();
            for (int sec = 0; sec < seconds; sec++) {
                String at = START.plusSeconds(sec).toString();
                StringBuilder rows = new StringBuilder(gpus * FIELDS.length * 70);
                for (String field : FIELDS) {
                    for (int g = 0; g < gpus; g++) {
                        rows.append("bench\tGPU-bench-").append(g).append("\tDEVICE\t\t").append(field).append('\t')
                                .append(at).append('\t').append(g % 100).append('\n');
                    }
                }
                copy.copyIn("COPY public.bench_copy FROM STDIN", new StringReader(rows.toString()));
            }
            return (System.nanoTime() - t0) / 1e9;
        }
    }
}
