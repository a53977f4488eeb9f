package io.gpumeter.bench;

import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import org.HdrHistogram.Histogram;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.support.ClassicRequestBuilder;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * Q1's latency over HTTP (the occupants of a random card at a random instant of the month), beside two floors
 * measured the same way in the same run: the ledger's liveness check (HTTP alone: no token, no database) and a
 * signed-in read of a known card a year before the month (HTTP, the token and two indexed lookups, an empty
 * answer). Where the
 * time of an answer goes is then the differences. With {@code jfr} the ledger is recorded by Flight Recorder
 * while the Q1 queries run.
 */
final class Q1Latency implements AutoCloseable {

    /**
     * Warm-up before each measurement, not recorded: rounds of queries until a round leaves the ledger's JIT quiet
     * (at most one new compilation), at least {@link #WARM_UP_MIN} and at most {@link #WARM_UP_MAX} queries. C2
     * compiles a hot method after some ten thousand calls, taking 100–400 ms of one of the two cores each time: with
     * a fixed thousand queries of warm-up, those compilations were inside the measure and made its tail.
     */
    private static final int WARM_UP_ROUND = 1_000;
    private static final int WARM_UP_MIN = 5_000;
    private static final int WARM_UP_MAX = 40_000;

    private final Suite suite;
    private final String authorization;
    /**
     * One kept-alive connection, read and written by the measuring thread itself: a client that hands each request to
     * a selector thread and each answer back adds two thread switches to every measure, which on two cores shared with
     * the ledger and PostgreSQL showed as milliseconds of tail.
     */
    private final CloseableHttpClient http = HttpClients.custom().disableAutomaticRetries().disableCookieManagement()
            .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create().setMaxConnTotal(1)
                    .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(Timeout.ofSeconds(5))
                            .setSocketTimeout(Timeout.ofSeconds(30)).build())
                    .build())
            .build();

    Q1Latency(Suite suite, String authorization) {
        this.suite = suite;
        this.authorization = authorization;
    }

    /**
     * Runs the floors and then {@code queries} Q1 queries over {@code uuids}; prints each; answers Q1's latencies (µs). The
     * database is settled first: a bulk load leaves the autovacuum and the checkpointer minutes of work, which on two
     * cores would be measured as Q1's tail; steady state is what a user asks Q1 in.
     */
    Histogram run(List<String> uuids, Instant from, Instant to, int queries, Path jfr) {
        settle(suite);
        URI ledger = suite.url(Service.LEDGER);
        URI live = suite.managementUrl(Service.LEDGER).resolve("/q/health/live");
        report("floor: liveness over HTTP (no token, no database)", measure(queries, () -> live, false).histogram());
        URI nobody = ledger.resolve("/api/v1/gpus/" + uuids.get(0) + "/occupants?at=" + from.minus(Duration.ofDays(365)));
        report("floor: a signed-in read that finds no occupant (token, two lookups)",
                measure(queries, () -> nobody, true).histogram());

        SplittableRandom random = new SplittableRandom(7);
        long seconds = Duration.between(from, to).getSeconds();
        Supplier<URI> q1 = () -> ledger.resolve("/api/v1/gpus/" + uuids.get(random.nextInt(uuids.size()))
                + "/occupants?at=" + from.plusSeconds(random.nextLong(seconds)));
        Recording recording = jfr == null ? null : Recording.start(suite.pid(Service.LEDGER).orElseThrow(), jfr);
        Measured measured = measure(queries, q1, true);
        if (recording != null) {
            recording.stop();
            System.out.println("ledger's Flight Recorder file for the Q1 queries: " + jfr);
        }
        Histogram latency = measured.histogram();
        System.out.printf("Q1 occupants of a GPU at an instant over HTTP: %d queries (%d with occupants)%n",
                queries, measured.withRows());
        report("Q1", latency);
        System.out.printf("Q1 target p99 <= 2 ms: %s%n", latency.getValueAtPercentile(99) <= 2_000 ? "met" : "NOT met");
        return latency;
    }

    /** VACUUM (ANALYZE) and a CHECKPOINT, then waits (at most 5 minutes) until no autovacuum worker is left. */
    static void settle(Suite suite) {
        DatabaseConnection db = suite.database().orElseThrow();
        long t0 = System.nanoTime();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement st = c.createStatement()) {
            st.execute("VACUUM (ANALYZE)");
            st.execute("CHECKPOINT");
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = st.executeQuery(
                        "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'")) {
                    rs.next();
                    if (rs.getLong(1) == 0) {
                        break;
                    }
                }
                Thread.sleep(1_000);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not settle the database: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        System.out.printf("database settled before Q1 (VACUUM ANALYZE, CHECKPOINT, autovacuum idle) in %.1f s%n",
                (System.nanoTime() - t0) / 1e9);
    }

    private record Measured(Histogram histogram, int withRows) {
    }

    private Measured measure(int queries, Supplier<URI> next, boolean signedIn) {
        warmUp(next, signedIn);
        Histogram latency = new Histogram(3_600_000_000L, 3);
        int withRows = 0;
        for (int i = 0; i < queries; i++) {
            URI uri = next.get();
            long start = System.nanoTime();
            Answer answer = get(uri, signedIn);
            long micros = (System.nanoTime() - start) / 1_000;
            if (answer.status() != 200) {
                throw new IllegalStateException(uri.getPath() + " answered " + answer.status() + ": " + answer.body());
            }
            latency.recordValue(micros);
            withRows += answer.body().startsWith("[{") ? 1 : 0;
        }
        return new Measured(latency, withRows);
    }

    private void warmUp(Supplier<URI> next, boolean signedIn) {
        long pid = suite.pid(Service.LEDGER).orElseThrow();
        long compiled = compilations(pid);
        int sent = 0;
        long added = Long.MAX_VALUE;
        while (sent < WARM_UP_MAX && (sent < WARM_UP_MIN || added > 1)) {
            for (int i = 0; i < WARM_UP_ROUND; i++) {
                Answer answer = get(next.get(), signedIn);
                if (answer.status() != 200) {
                    throw new IllegalStateException("warm-up answered " + answer.status() + ": " + answer.body());
                }
            }
            sent += WARM_UP_ROUND;
            long now = compilations(pid);
            added = now - compiled;
            compiled = now;
        }
        System.out.printf("  (warm-up: %,d queries, %s)%n", sent, added <= 1 ? "the ledger's JIT quiet" : "the JIT still compiling");
    }

    /** How many methods the JIT of process {@code pid} has compiled so far ({@code jstat -compiler}). */
    private static long compilations(long pid) {
        Path jstat = Path.of(System.getProperty("java.home"), "bin", "jstat");
        try {
            Process p = new ProcessBuilder(jstat.toString(), "-compiler", Long.toString(pid)).redirectErrorStream(true).start();
            String[] lines = new String(p.getInputStream().readAllBytes()).strip().split("\n");
            if (p.waitFor() != 0 || lines.length < 2) {
                throw new IllegalStateException("jstat -compiler " + pid + " failed: " + String.join(" ", lines));
            }
            return Long.parseLong(lines[1].trim().split("\s+")[0]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void report(String what, Histogram h) {
        System.out.printf("  %-70s p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms%n", what,
                h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0,
                h.getValueAtPercentile(99.9) / 1000.0, h.getMaxValue() / 1000.0);
    }

    private record Answer(int status, String body) {
    }

    private Answer get(URI uri, boolean signedIn) {
        ClassicRequestBuilder request = ClassicRequestBuilder.get(uri);
        if (signedIn) {
            request.addHeader("Authorization", authorization);
        }
        ClassicHttpRequest built = request.build();
        try {
            return http.execute(built, response -> new Answer(response.getCode(), EntityUtils.toString(response.getEntity())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        http.close(CloseMode.GRACEFUL);
    }

    /** A Flight Recorder recording started and stopped in a running process with jcmd. */
    private record Recording(long pid, Path file) {

        static Recording start(long pid, Path file) {
            try {
                Files.createDirectories(file.getParent());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            jcmd(pid, "JFR.start", "name=q1", "settings=profile", "filename=" + file);
            return new Recording(pid, file);
        }

        void stop() {
            jcmd(pid, "JFR.stop", "name=q1");
        }

        private static void jcmd(long pid, String... command) {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            List<String> line = new java.util.ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
            line.addAll(List.of(command));
            try {
                Process p = new ProcessBuilder(line).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes());
                if (p.waitFor() != 0) {
                    throw new IllegalStateException("jcmd " + String.join(" ", command) + " failed: " + out);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
