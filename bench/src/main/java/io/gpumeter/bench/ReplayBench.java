package io.gpumeter.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.launcher.cli.ReplayCommand;
import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.replay.ReplayClient;
import io.gpumeter.launcher.replay.RequestCutter;
import io.gpumeter.launcher.suite.JvmDefaults;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.gpumeter.launcher.suite.SuiteBuilder;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A bulk replay of a month's watch events through the collector, as after an outage or at a first install on a large
 * cluster: the month of {@link FleetMonth} rendered as watch events ({@link WatchLines}) is written to request files
 * of {@code --lines} lines, then sent to {@code POST /api/v1/ingest/kubernetes} as {@code ./gpumeter replay} sends a
 * stream, with the CPU each process spent and the write-ahead log the database wrote meanwhile. Beside it, in the
 * same run, the same month goes straight to the ledger as facts ({@code POST /api/v1/facts}), and the fact rows the
 * replay stored are written once more with a raw PostgreSQL COPY: the floor any intake path stands on.
 * Usage: {@code bench/run replay [gpus] [--pods=N] [--lines=N] [--in-flight=N] [--jvm="OPTIONS"] [--jfr]} (defaults
 * 2000 GPUs, 100,000 pods, 40,000 lines, one request at a time, sent through {@code ./gpumeter replay}'s client;
 * {@code --jfr} records each service with Flight Recorder under bench/target/replay/jfr).
 */
public final class ReplayBench {

    private static final Instant MONTH_START = Instant.parse("2026-05-01T00:00:00Z");
    private static final Instant MONTH_END = Instant.parse("2026-06-01T00:00:00Z");
    private static final List<String> FACT_TABLES = List.of("namespace_fact", "node_fact", "pod_fact");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private final Suite suite;
    private final String authorization;

    private ReplayBench(Suite suite) {
        this.suite = suite;
        this.authorization = "Bearer " + suite.adminToken();
    }

    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        long pods = 100_000;
        int lines = 40_000;
        int inFlight = 1;
        boolean profile = false;
        List<String> jvm = null; // the launcher's own, each service its own
        for (String arg : args) {
            if (arg.startsWith("--pods=")) {
                pods = Long.parseLong(arg.substring("--pods=".length()).replace("_", ""));
            } else if (arg.startsWith("--jvm=")) { // the services' JVM options instead of the launcher's
                jvm = new ArrayList<>(List.of(arg.substring("--jvm=".length()).trim().split("\\s+")));
            } else if (arg.equals("--jfr")) {
                profile = true;
            } else if (arg.startsWith("--in-flight=")) {
                inFlight = Integer.parseInt(arg.substring("--in-flight=".length()));
            } else if (arg.startsWith("--lines=")) {
                lines = Integer.parseInt(arg.substring("--lines=".length()).replace("_", ""));
            } else {
                positional.add(arg);
            }
        }
        int gpus = positional.isEmpty() ? 2_000 : Integer.parseInt(positional.get(0));
        Path root = Path.of("").toAbsolutePath();
        Path state = root.resolve("bench/target/replay");
        System.out.printf("gpumeter replay benchmark: %,d GPUs, about %,d pods, month 2026-05, requests of %,d lines, %d in flight, %d cores, java %s%n",
                gpus, pods, lines, inFlight, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        List<Path> requests = WatchLines.writeRequests(state.resolve("requests"), month(gpus, pods), lines);
        SuiteBuilder builder = Suite.builder(root);
        for (Service s : List.of(Service.LEDGER, Service.COLLECTOR)) {
            List<String> options = new ArrayList<>(jvm != null ? jvm : JvmDefaults.of(s));
            if (profile) { // one recording per service process, named after its process id, for `jfr print`
                Files.createDirectories(state.resolve("jfr")); // without it, every process writes one file named jfr
                options.add("-XX:StartFlightRecording=settings=profile,filename=" + state.resolve("jfr") + "/,dumponexit=true");
            }
            builder.jvmOptions(s, options);
        }
        try (Suite suite = builder.services(Set.of(Service.LEDGER, Service.COLLECTOR)).freePorts()
                .embeddedDatabase(state.resolve("pgdata")).freshDatabase(true).stateDirectory(state)
                .logDirectory(state.resolve("logs"))
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_WATCH_ENABLED", "false")
                .readyTimeout(Duration.ofMinutes(3)).build().start()) {
            new ReplayBench(suite).run(requests, gpus, pods, lines, inFlight, state.resolve("pgdata"));
        }
    }

    private void run(List<Path> requests, int gpus, long pods, int lines, int inFlight, Path pgdata) throws Exception {
        for (Service s : suite.config().services()) {
            System.out.println(s.module() + "'s JVM options: " + String.join(" ", suite.config().jvmOptions(s)));
        }
        Map<Service, ProcessMemory> memory = new TreeMap<>();
        for (Service s : List.of(Service.COLLECTOR, Service.LEDGER)) {
            ProcessMemory.watch(s.module(), suite.managementUrl(s)).ifPresent(m -> memory.put(s, m));
        }
        ProcessCpu.Group cpu = new ProcessCpu.Group();
        memory.forEach((s, m) -> cpu.addJvm(s.module(), ProcessCpu.of(m.pid())));
        ProcessCpu.postgres(pgdata).ifPresent(p -> cpu.add("postgres", p));
        Map<String, Double> before = cpu.now();
        ProcessCpu client = ProcessCpu.of(ProcessHandle.current().pid()); // shares the cores, so it is shown too
        double clientBefore = client.seconds();
        WalWritten walBefore = WalWritten.now(suite.database().orElseThrow());
        URI replay = suite.url(Service.COLLECTOR).resolve("/api/v1/ingest/kubernetes?cluster=replay");
        long t0 = System.nanoTime();
        ReplayClient.Outcome replayed = replay(requests, lines, inFlight, replay);
        long events = replayed.events();
        double replaySeconds = (System.nanoTime() - t0) / 1e9;
        Map<String, Long> counts = new TreeMap<>(Map.of(
                "accepted", replayed.stored().stream().mapToLong(ReplayClient.Stored::accepted).sum(),
                "duplicates", replayed.stored().stream().mapToLong(ReplayClient.Stored::duplicates).sum(),
                "skipped", replayed.stored().stream().mapToLong(ReplayClient.Stored::skipped).sum()));
        System.out.printf("replay through the collector: %,d events in %.1f s: %,.0f events/s; %d of %d requests refused; %s%n",
                events, replaySeconds, events / replaySeconds, replayed.refused().size(),
                replayed.stored().size() + replayed.refused().size(), counts);
        System.out.println(cpu.since(before, "replay", events, "events"));
        System.out.println(WalWritten.now(suite.database().orElseThrow()).since(walBefore, "replay"));
        System.out.printf("  CPU of the replay's client (this JVM, not in the sum above): %.1f s%n",
                client.seconds() - clientBefore);

        FleetMonth fleet = month(gpus, pods);
        long[] facts = {0};
        URI intake = suite.url(Service.LEDGER).resolve("/api/v1/facts");
        before = cpu.now();
        walBefore = WalWritten.now(suite.database().orElseThrow());
        long t1 = System.nanoTime();
        fleet.emit("direct", 20_000, batch -> {
            try {
                byte[] body = json.writeValueAsBytes(batch);
                for (int attempt = 1; ; attempt++) { // a 503 is retried, as every client of the ledger does
                    HttpResponse<String> answer = send(HttpRequest.newBuilder(intake).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
                    if (answer.statusCode() == 200) {
                        break;
                    }
                    System.out.printf("  direct batch refused %d (attempt %d): %s%n", answer.statusCode(), attempt, answer.body());
                    if (answer.statusCode() != 503 || attempt == 3) {
                        throw new IllegalStateException("the ledger refused a batch: " + answer.statusCode() + " " + answer.body());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            facts[0] += batch.size();
        });
        double directSeconds = (System.nanoTime() - t1) / 1e9;
        System.out.printf("direct fact intake (ledger): %,d facts of %,d pods in %.1f s: %,.0f facts/s%n", facts[0],
                fleet.pods(), directSeconds, facts[0] / directSeconds);
        System.out.println(cpu.since(before, "direct intake", facts[0], "facts"));
        System.out.println(WalWritten.now(suite.database().orElseThrow()).since(walBefore, "direct intake"));
        copyFloor(suite.database().orElseThrow());
        // What the services keep once the load is over: G1 looks every 15 s whether 15 s have passed without a
        // collection, so the periodic one that gives the heap back comes up to 30 s after the load's last one.
        Thread.sleep(45_000);
        memory.forEach((s, m) -> {
            System.out.printf("%s memory: %s%n", s.module(), m.summary());
            m.close();
        });
    }

    /**
     * The month's request files as one stream, through the client {@code ./gpumeter replay} runs: cut again into
     * requests of {@code lines}, up to {@code inFlight} at once, so that the collector reads one while the ledger stores
     * another.
     */
    private ReplayClient.Outcome replay(List<Path> requests, int lines, int inFlight, URI replay) throws Exception {
        List<InputStream> files = new ArrayList<>();
        for (Path request : requests) {
            files.add(Files.newInputStream(request));
        }
        ReplayClient client = new ReplayClient(replay, Optional.of(suite.adminToken()), inFlight, 5, Duration.ofSeconds(1),
                s -> System.out.printf("  request %d: %,d events in %.2f s (%,.0f events/s)%n", s.request().index(),
                        s.events(), s.seconds(), s.events() / s.seconds()));
        ReplayClient.Outcome outcome;
        try (InputStream stream = new SequenceInputStream(Collections.enumeration(files))) {
            outcome = client.replay(new RequestCutter(stream, lines, ReplayCommand.MAX_BYTES));
        }
        outcome.refused().forEach(r -> System.out.println("  " + r.reason()));
        return outcome;
    }

    /** The simulated month both paths carry: the same fleet, seed and pod count. */
    private static FleetMonth month(int gpus, long pods) {
        return new FleetMonth(gpus, MONTH_START, MONTH_END, 42, FleetMonth.scaleFor(gpus, pods, MONTH_START, MONTH_END));
    }

    /** COPYs the replay's stored fact rows into empty twins of their tables: the cost of writing the rows alone. */
    private static void copyFloor(DatabaseConnection db) throws SQLException, IOException {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement st = c.createStatement()) {
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            long rows = 0;
            long bytes = 0;
            double seconds = 0;
            for (String table : FACT_TABLES) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                copy.copyOut("COPY (SELECT * FROM ledger." + table + " WHERE cluster = 'replay') TO STDOUT (FORMAT binary)", out);
                st.execute("CREATE TABLE ledger.copy_" + table + " (LIKE ledger." + table + " INCLUDING ALL)");
                long start = System.nanoTime();
                rows += copy.copyIn("COPY ledger.copy_" + table + " FROM STDIN (FORMAT binary)",
                        new ByteArrayInputStream(out.toByteArray()));
                seconds += (System.nanoTime() - start) / 1e9;
                bytes += out.size();
                st.execute("DROP TABLE ledger.copy_" + table);
            }
            System.out.printf("raw COPY of the replay's fact rows (keys and indexes included): %,d rows, %,d MiB in %.1f s: %,.0f rows/s%n",
                    rows, bytes >> 20, seconds, rows / seconds);
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return http.send(request.header("Authorization", authorization).timeout(Duration.ofMinutes(15)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
