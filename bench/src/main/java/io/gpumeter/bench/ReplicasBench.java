package io.gpumeter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.simulator.FleetSimulator;
import io.gpumeter.launcher.simulator.NdjsonWriter;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * Two replicas of every service against one database, as the prod overlay runs them. The simulated fleet's history
 * goes to both collectors at once, each request to each (as two collectors watching one API server both see every
 * event), in 40 requests; the collector of the first pair is stopped halfway and the second carries on alone. The
 * same history also goes through one collector alone under another cluster name. Printed: facts stored per cluster
 * (each once: the pair's count equals the single run's), the GPU-hours per namespace of both (identical), and then,
 * over six evaluation periods, the evaluations each alert-service replica ran and the alerts a real Alertmanager
 * received ({@link AlertCount}). Exits non-zero when the books or the fact counts differ, or when the replicas
 * evaluated or posted more often than one instance would.
 * Usage: {@code bench/run replicas}
 */
public final class ReplicasBench {

    private static final int REQUESTS = 40;
    private static final Duration EVALUATION_PERIOD = Duration.ofSeconds(5);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();
    private final Instant end;

    private ReplicasBench(Instant end) {
        this.end = end;
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of("").toAbsolutePath();
        Path state = root.resolve("bench/target/replicas");
        Trees.delete(state);
        // the history ends now, so that its last week's OOM failures are recent enough to fire GpuWorkloadOom
        Instant end = Instant.now().truncatedTo(ChronoUnit.HOURS);
        Plan plan = new FleetSimulator(FleetSimulator.DEFAULT_SEED, end).plan();
        List<String> lines = plan.events().stream().map(NdjsonWriter::line).toList();
        System.out.printf("gpumeter replicas benchmark: 2 replicas of 5 services on one PostgreSQL; %,d watch events of the simulated fleet%n",
                lines.size());
        Optional<AlertmanagerProcess> alertmanager = AlertmanagerProcess.start(state.resolve("alertmanager"));
        System.out.println(alertmanager.map(am -> "a real Alertmanager at " + am.url() + " receives both replicas' alerts")
                .orElse("no prometheus-alertmanager on the PATH: alerts are counted on the replicas' side only"));
        try (Suite first = replica(root, state.resolve("a"), alertmanager).embeddedDatabase(state.resolve("pgdata"))
                .freshDatabase(true).build().start()) {
            DatabaseConnection db = first.database().orElseThrow();
            Files.createDirectories(state.resolve("b"));
            copyTree(state.resolve("a/keys"), state.resolve("b/keys")); // one key pair: both replicas accept one token
            try (Suite second = replica(root, state.resolve("b"), alertmanager).externalDatabase(db).build().start()) {
                boolean agree = new ReplicasBench(end).run(first, second, db, lines)
                        & new AlertCount(first, second, db, alertmanager).measure(EVALUATION_PERIOD, 6);
                if (!agree) {
                    System.exit(1);
                }
            }
        } finally {
            alertmanager.ifPresent(AlertmanagerProcess::close);
        }
    }

    private static io.gpumeter.launcher.suite.SuiteBuilder replica(Path root, Path state, Optional<AlertmanagerProcess> am) {
        io.gpumeter.launcher.suite.SuiteBuilder b = Suite.builder(root).freePorts().stateDirectory(state)
                .logDirectory(state.resolve("logs"))
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_WATCH_ENABLED", "false")
                .env(Service.ALERT, "GPUMETER_ALERT_EVALUATION_EVERY", EVALUATION_PERIOD.toSeconds() + "s")
                // a week's OOM failures of the simulated history fire GpuWorkloadOom (the failure look-back is a week)
                .env(Service.ALERT, "GPUMETER_ALERT_RULES_OOM_WINDOW", "P7D")
                .readyTimeout(Duration.ofMinutes(4));
        am.ifPresent(a -> b.env(Service.ALERT, "QUARKUS_REST_CLIENT_ALERTMANAGER_URL", a.url().toString()));
        return b;
    }

    private boolean run(Suite first, Suite second, DatabaseConnection db, List<String> lines) throws Exception {
        String token = "Bearer " + first.adminToken();
        List<List<String>> requests = slices(lines, REQUESTS);
        long t0 = System.nanoTime();
        for (int i = 0; i < requests.size(); i++) {
            String body = String.join("\n", requests.get(i)) + "\n";
            if (i == requests.size() / 2) {
                first.faults().stop(Service.COLLECTOR);
                System.out.printf("  the first collector stopped after %d of %d requests; the second carries on%n", i, requests.size());
            }
            CompletableFuture<Integer> a = first.isRunning(Service.COLLECTOR)
                    ? CompletableFuture.supplyAsync(() -> replay(first, "pair", body, token)) : CompletableFuture.completedFuture(200);
            CompletableFuture<Integer> b = CompletableFuture.supplyAsync(() -> replay(second, "pair", body, token));
            if (a.get() != 200 || b.get() != 200) {
                throw new IllegalStateException("a replica refused request " + i + ": " + a.get() + " / " + b.get());
            }
        }
        System.out.printf("  pair: %d requests to both collectors in %.1f s%n", requests.size(), (System.nanoTime() - t0) / 1e9);
        for (List<String> request : requests) {
            int status = replay(second, "single", String.join("\n", request) + "\n", token);
            if (status != 200) {
                throw new IllegalStateException("the single collector refused a request: " + status);
            }
        }
        Map<String, Long> pairFacts = factRows(db, "pair");
        Map<String, Long> singleFacts = factRows(db, "single");
        System.out.printf("facts stored, two collectors: %s%nfacts stored, one collector:  %s%n", pairFacts, singleFacts);
        Map<String, String> pairHours = hours(first, "pair", token);
        Map<String, String> singleHours = hours(second, "single", token);
        System.out.printf("GPU-hours per namespace, two collectors (read from replica 1): %s%n", pairHours);
        System.out.printf("GPU-hours per namespace, one collector  (read from replica 2): %s%n", singleHours);
        boolean agree = pairFacts.equals(singleFacts) && pairHours.equals(singleHours) && !pairHours.isEmpty();
        System.out.println(agree ? "replicas agree: each fact stored once, the same books as one instance"
                : "replicas DISAGREE");
        return agree;
    }

    private int replay(Suite suite, String cluster, String body, String token) {
        URI uri = suite.url(Service.COLLECTOR).resolve("/api/v1/ingest/kubernetes?cluster=" + cluster);
        return send(HttpRequest.newBuilder(uri).header("Authorization", token).header("Content-Type", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString(body))).statusCode();
    }

    private Map<String, String> hours(Suite suite, String cluster, String token) throws IOException {
        // a window that ends where the history does: pods still running add nothing while the two are read
        URI uri = suite.url(Service.LEDGER).resolve("/api/v1/gpu-hours?from=" + end.minus(Duration.ofDays(60))
                + "&to=" + end
                + "&cluster=" + cluster + "&groupBy=namespace&limit=1000");
        HttpResponse<String> answer = send(HttpRequest.newBuilder(uri).header("Authorization", token).GET());
        Map<String, String> out = new TreeMap<>();
        for (JsonNode row : json.readTree(answer.body())) {
            out.put(row.path("key").asText(), row.path("allocatedGpuHours").asText());
        }
        return out;
    }

    private static Map<String, Long> factRows(DatabaseConnection db, String cluster) throws SQLException {
        Map<String, Long> out = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            for (String table : List.of("namespace_fact", "node_fact", "pod_fact", "pod_status_version", "allocation_segment")) {
                try (PreparedStatement st = c.prepareStatement("SELECT count(*) FROM ledger." + table + " WHERE cluster = ?")) {
                    st.setString(1, cluster);
                    try (ResultSet rs = st.executeQuery()) {
                        rs.next();
                        out.put(table, rs.getLong(1));
                    }
                }
            }
        }
        return out;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofMinutes(5)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<List<String>> slices(List<String> lines, int count) {
        List<List<String>> out = new ArrayList<>();
        int size = (lines.size() + count - 1) / count;
        for (int i = 0; i < lines.size(); i += size) {
            out.add(lines.subList(i, Math.min(lines.size(), i + size)));
        }
        return out;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
