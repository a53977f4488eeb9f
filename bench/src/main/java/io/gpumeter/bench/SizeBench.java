package io.gpumeter.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.simulator.FleetSimulator;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the database holds per unit, measured: each step loads one kind of data into a fresh database and the bytes
 * (pg_total_relation_size: table, TOAST and indexes, after VACUUM ANALYZE) and rows each table gained are divided by
 * the units loaded. Steps: the simulated fleet's watch events through the collector (facts, governance facts and
 * books per pod); a month of allocation facts sent to the ledger (per pod); dcgm-exporter scrapes every 10 s through
 * the collector (usage minutes per GPU-day), then the same usage after the ledger's retention has folded it into
 * hours (per GPU-day); vLLM request records through slo-service (per latency minute of one pod).
 * Usage: {@code bench/run sizes [gpus] [usage-gpus] [usage-hours]} (defaults 1000, 50, 4; the usage is dated 40 days back, so the minute retention folds it).
 */
public final class SizeBench {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private String authorization;
    private DatabaseConnection db;

    public static void main(String[] args) throws Exception {
        int gpus = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int usageGpus = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        int usageHours = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        Path root = Path.of("").toAbsolutePath();
        Path state = root.resolve("bench/target/size-run");
        SizeBench bench = new SizeBench();
        // First everything is loaded with the retention job off; then the ledger alone runs again on the same
        // database with the job on, and folds the usage day into hours.
        try (Suite suite = suite(root, state, true, Set.of(Service.LEDGER, Service.COLLECTOR, Service.SLO), "off")) {
            bench.load(suite, gpus, usageGpus, usageHours);
        }
        try (Suite suite = suite(root, state, false, Set.of(Service.LEDGER), "5s")) {
            bench.fold(suite);
        }
    }

    private static Suite suite(Path root, Path state, boolean fresh, Set<Service> services, String retentionEvery) {
        return Suite.builder(root).services(services).freePorts()
                .embeddedDatabase(state.resolve("pgdata")).freshDatabase(fresh).stateDirectory(state)
                .logDirectory(state.resolve(fresh ? "logs" : "logs-fold")).jvmOptions(List.of("-XX:+UseParallelGC", "-Xmx1g"))
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_WATCH_ENABLED", "false")
                .env(Service.LEDGER, "GPUMETER_LEDGER_RETENTION_EVERY", retentionEvery)
                .env(Service.LEDGER, "GPUMETER_LEDGER_RETENTION_DELAY", "1s")
                // Sizes do not depend on speed: on a busy machine, wait for the database rather than fail.
                .env("QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT", "PT2M")
                .readyTimeout(Duration.ofMinutes(3)).build().start();
    }

    private Map<String, long[]> beforeUsage;
    private double gpuDays;

    /** The retention job folds the usage day into hours; prints the same usage's size per GPU-day then. */
    private void fold(Suite suite) throws Exception {
        db = suite.database().orElseThrow();
        awaitSql("SELECT count(*) FROM pg_inherits WHERE inhparent = 'ledger.usage_minute'::regclass", 0, 300);
        report("the same usage folded into hours by the retention job, per GPU-day (against the database before the usage)",
                beforeUsage, gpuDays);
    }

    private void load(Suite suite, int gpus, int usageGpus, int usageHours) throws Exception {
        authorization = "Bearer " + suite.adminToken();
        db = suite.database().orElseThrow();
        System.out.printf("gpumeter size benchmark: bytes are pg_total_relation_size (heap, TOAST, indexes) after VACUUM"
                + " ANALYZE, per table, as each step added them%n");

        // 1. The simulated fleet's whole history through the collector: the real intake path, governance included.
        Map<String, long[]> before = sizes();
        FleetSimulator simulator = new FleetSimulator(FleetSimulator.DEFAULT_SEED, Instant.parse("2026-05-31T00:00:00Z"));
        StringWriter ndjson = new StringWriter();
        simulator.toNdjson(ndjson);
        post(suite.url(Service.COLLECTOR).resolve("/api/v1/ingest/kubernetes?cluster=sim"), "application/x-ndjson",
                ndjson.toString());
        int simPods = simulator.plan().pods().size();
        report("simulated fleet through the collector, per pod (" + simPods + " pods, "
                + simulator.plan().events().size() + " watch events)", before, simPods);

        // 2. A month of a larger fleet's allocation facts straight into the ledger.
        before = sizes();
        FleetMonth fleet = new FleetMonth(gpus, Instant.parse("2026-05-01T00:00:00Z"), Instant.parse("2026-06-01T00:00:00Z"), 42);
        fleet.emit(20_000, batch -> post(suite.url(Service.LEDGER).resolve("/api/v1/facts"), "application/json", write(batch)));
        report("a month of " + gpus + " GPUs' allocation facts, per pod (" + fleet.pods() + " pods)", before, fleet.pods());

        // 3. Usage: dcgm-exporter scrapes every 10 s, dated 40 days back so the retention folds them afterwards.
        before = sizes();
        Instant start = Instant.now().truncatedTo(ChronoUnit.DAYS).minus(Duration.ofDays(40));
        URI dcgm = suite.url(Service.COLLECTOR).resolve("/api/v1/ingest/dcgm?node=bench");
        int scrapes = usageHours * 360;
        for (int s = 0; s < scrapes; s++) {
            post(dcgm, "text/plain", FederatedScrape.scrape(usageGpus, start.plusSeconds(10L * s)));
        }
        awaitSql("SELECT coalesce(sum(samples), 0) FROM ledger.usage_minute",
                (long) usageGpus * FederatedScrape.FIELDS.length * scrapes, 600);
        double gpuDays = usageGpus * usageHours / 24.0;
        report("usage minutes, per GPU-day (" + usageGpus + " GPUs x " + usageHours + " h, 10 fields scraped every 10 s)",
                before, gpuDays);

        beforeUsage = before;
        this.gpuDays = gpuDays;

        // 5. Latency: request records of one service's pods, several a minute each.
        before = sizes();
        int pods = 20;
        int minutes = 120;
        StringBuilder lines = new StringBuilder();
        Instant t0 = Instant.parse("2026-05-04T00:00:00Z");
        for (int m = 0; m < minutes; m++) {
            for (int p = 0; p < pods; p++) {
                for (int r = 0; r < 30; r++) {
                    lines.append("{\"service\":\"chat\",\"namespace\":\"ml\",\"pod\":\"chat-").append(p).append("\",\"ts\":\"")
                            .append(t0.plusSeconds(60L * m + 2L * r)).append("\",\"ttftMs\":").append(80 + (m * 7 + r * 13 + p) % 400)
                            .append(",\"itlMs\":").append(10 + (r * 3 + p) % 40).append(",\"e2eMs\":").append(500 + (m + r * 31) % 3000)
                            .append(",\"ok\":").append(r % 50 != 0).append("}\n");
                }
            }
            if ((m + 1) % 30 == 0) {
                post(suite.url(Service.SLO).resolve("/api/v1/ingest/latency"), "application/x-ndjson", lines.toString());
                lines.setLength(0);
            }
        }
        // Usage's step is measured again after the fold, against the sizes before it: latency is slo's schema only.
        beforeUsage.putAll(sizes().entrySet().stream().filter(e -> e.getKey().startsWith("slo."))
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        report("latency, per pod-minute (" + pods + " pods x " + minutes + " min, 30 requests a minute, 3 SLIs)",
                before, pods * (double) minutes);
    }

    /** Waits until a count reaches its value. */
    private void awaitSql(String sql, long expected, int seconds) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        long found = -1;
        try (Connection c = connect(); Statement s = c.createStatement()) {
            while (System.nanoTime() < deadline) {
                try (ResultSet r = s.executeQuery(sql)) {
                    r.next();
                    found = r.getLong(1);
                }
                if (found == expected) {
                    return;
                }
                Thread.sleep(500);
            }
        }
        throw new IllegalStateException(sql + " gave " + found + ", not " + expected + ", after " + seconds + " s");
    }

    /** Prints each table's bytes and rows added since {@code before}, per unit. */
    private void report(String what, Map<String, long[]> before, double units) throws SQLException {
        Map<String, long[]> after = sizes();
        System.out.printf("%n%s%n  %-32s %14s %12s %12s %10s%n", what, "table", "bytes", "rows", "bytes/unit", "rows/unit");
        long totalBytes = 0;
        for (Map.Entry<String, long[]> e : after.entrySet()) {
            long[] b = before.getOrDefault(e.getKey(), new long[2]);
            long bytes = e.getValue()[0] - b[0];
            long rows = e.getValue()[1] - b[1];
            if (rows == 0 && bytes == 0) {
                continue;
            }
            totalBytes += bytes;
            System.out.printf("  %-32s %,14d %,12d %,12.0f %,10.2f%n", e.getKey(), bytes, rows, bytes / units, rows / units);
        }
        for (String gone : before.keySet()) {
            if (!after.containsKey(gone)) {
                totalBytes -= before.get(gone)[0];
                System.out.printf("  %-32s %,14d (dropped)%n", gone, -before.get(gone)[0]);
            }
        }
        System.out.printf("  %-32s %,14d %12s %,12.0f%n", "total", totalBytes, "", totalBytes / units);
    }

    /** Bytes and rows of every table of the ledger and slo schemas (partitions under their parent's name). */
    private Map<String, long[]> sizes() throws SQLException {
        Map<String, long[]> out = new TreeMap<>();
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("VACUUM ANALYZE");
            try (ResultSet r = s.executeQuery("""
                    SELECT n.nspname || '.' || coalesce(p.relname, c.relname) AS name,
                           sum(pg_total_relation_size(c.oid))::int8 AS bytes, sum(c.reltuples)::int8 AS rows
                    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                    LEFT JOIN pg_inherits i ON i.inhrelid = c.oid LEFT JOIN pg_class p ON p.oid = i.inhparent
                    WHERE n.nspname IN ('ledger', 'slo') AND c.relkind = 'r' AND c.relname <> 'flyway_schema_history'
                    GROUP BY 1""")) {
                while (r.next()) {
                    out.put(r.getString("name"), new long[] {r.getLong("bytes"), Math.max(0, r.getLong("rows"))});
                }
            }
        }
        return out;
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
    }

    private byte[] write(Object body) {
        try {
            return json.writeValueAsBytes(body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void post(URI uri, String type, String body) {
        post(uri, type, body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private void post(URI uri, String type, byte[] body) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).header("Authorization", authorization)
                    .timeout(Duration.ofMinutes(10)).header("Content-Type", type)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(uri.getPath() + " answered " + response.statusCode() + ": " + response.body());
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
