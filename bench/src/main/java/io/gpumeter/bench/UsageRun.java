package io.gpumeter.bench;

import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import org.HdrHistogram.Histogram;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One sustained usage run of {@link UsageBench}: warm-up, the measured window, the drain, then the figures. */
final class UsageRun {

    private static final Pattern ACCEPTED = Pattern.compile(
            "(?m)^gpumeter_collector_usage_samples_total\\{outcome=\"accepted\",?\\} (\\S+)$");
    private static final Pattern HELD = Pattern.compile("(?m)^gpumeter_collector_buffer_usage(?:\\{\\})? (\\S+)$");

    private final Suite suite;
    private final Suite second;
    private final ExporterFleet fleet;
    private final Path pgdata;
    private final int gpus;
    private final Duration interval;
    private final HttpClient http = HttpClient.newHttpClient();

    UsageRun(Suite suite, Suite second, ExporterFleet fleet, Path pgdata, int gpus, Duration interval) {
        this.suite = suite;
        this.second = second;
        this.fleet = fleet;
        this.pgdata = pgdata;
        this.gpus = gpus;
        this.interval = interval;
    }

    void run(int warmUp, int seconds) throws Exception {
        DatabaseConnection db = suite.database().orElseThrow();
        ProcessCpu.Group cpu = new ProcessCpu.Group();
        cpu.addJvm("ledger", ProcessCpu.of(suite.pid(Service.LEDGER).orElseThrow()));
        cpu.addJvm("collector", ProcessCpu.of(suite.pid(Service.COLLECTOR).orElseThrow()));
        if (second != null) {
            cpu.addJvm("collector-2", ProcessCpu.of(second.pid(Service.COLLECTOR).orElseThrow()));
        }
        ProcessCpu.postgres(pgdata).ifPresent(p -> cpu.add("postgres", p));
        cpu.add("bench (the exporters)", ProcessCpu.of(ProcessHandle.current().pid()));
        try (IntakeLag lag = new IntakeLag(suite.managementUrl(Service.LEDGER)).start()) {
            long perPage = valuesPerPage();
            Thread.sleep(warmUp * 1000L);
            int firstPage = fleet.served();
            long windowStart = System.nanoTime();
            Map<String, Double> cpuBefore = cpu.now();
            Map<String, RollupGrowth.Table> sizesBefore = RollupGrowth.tables(db);
            Thread.sleep(seconds * 1000L);
            int lastPage = fleet.served();
            double window = (System.nanoTime() - windowStart) / 1e9;
            Map<String, Double> cpuAfter = cpu.now();
            fleet.close(); // no more pages: what the collectors hold drains into the books
            // Drained once the collectors hold nothing and the books' count then stays still: a count still for a while
            // alone is no proof, a batch of a backlog may take that long.
            boolean drained = awaitEmptyCollectors(Duration.ofMinutes(10))
                    && UsageBench.awaitSteady(lag::storedNow, Duration.ofSeconds(10), Duration.ofMinutes(10));
            long stored = lag.storedNow();
            Map<String, RollupGrowth.Table> sizesAfter = RollupGrowth.tables(db);
            long[] servedAt = fleet.servedAt();
            report(lag, servedAt, firstPage, lastPage, window, stored - perPage, perPage, drained);
            cpuReport(cpuBefore, cpuAfter, window);
            System.out.println("tables' growth at this scale: " + RollupGrowth.perDay(sizesBefore, sizesAfter, window / 60));
            long values = perPage * (lastPage - firstPage);
            double copy = CopyFloor.seconds(db, values, Math.min(gpus, 100_000));
            System.out.printf("floor: a raw COPY of the window's %,d values took %.1f s = %,.0f values/s; the intake needs"
                    + " %,.0f values/s at this scale (%.0f%% of the floor)%n", values, copy, values / copy, values / window,
                    100 * (values / window) / (values / copy));
        }
    }

    /**
     * The values the collector keeps of one node's page, as its own answer to the page pushed once under another
     * node's name: the books must then hold exactly this many per page served, which no double count or loss keeps.
     */
    private long valuesPerPage() {
        String answer = new IngestRun(suite).post(suite.url(Service.COLLECTOR).resolve("/api/v1/ingest/dcgm?node=calibration"),
                DcgmPage.render(fleetNodes(), 0));
        Matcher m = Pattern.compile("\"accepted\":(\\d+)").matcher(answer);
        if (!m.find()) {
            throw new IllegalStateException("the collector's answer names no accepted count: " + answer);
        }
        return Long.parseLong(m.group(1));
    }

    private int fleetNodes() {
        return (gpus + DcgmPage.GPUS_PER_NODE - 1) / DcgmPage.GPUS_PER_NODE;
    }

    private void report(IntakeLag lag, long[] servedAt, int firstPage, int lastPage, double window, long stored,
                        long perPage, boolean drained) throws Exception {
        long expected = perPage * servedAt.length;
        int nodes = fleetNodes();
        double rounds = window / interval.toSeconds();
        int[] perNode = fleet.servedPerNodeRange();
        System.out.printf("pages served: %,d in the window of %.0f s, %.1f%% of %,d nodes x %.1f intervals; over the run each"
                        + " node served %d to %d pages%n", lastPage - firstPage, window,
                100.0 * (lastPage - firstPage) / (nodes * rounds), nodes, rounds, perNode[0], perNode[1]);
        System.out.printf("books: %,d values stored for %,d pages of %,d values each (the collector's count of one page):"
                        + " %s%s%n", stored, servedAt.length, perPage,
                stored == expected ? "exactly, no value counted twice or lost"
                        : String.format("%,d %s", Math.abs(stored - expected), stored > expected ? "TOO MANY" : "MISSING"),
                drained ? "" : " (the count still moved 10 minutes after the last page)");
        if (second != null) {
            System.out.printf("values each collector accepted: %,.0f and %,.0f%n", accepted(suite), accepted(second));
        }
        // the values before a page's: the pages served before it, and the one page the calibration pushed
        IntakeLag.Lags lags = lag.lags(java.util.Arrays.copyOf(servedAt, lastPage), firstPage, perPage,
                (firstPage + 1L) * perPage);
        System.out.println("lag from scrape to books, the window: " + lags.line()
                + (stored < expected ? " (values were lost: the lags after the first loss are too long)" : ""));
        StringBuilder byMinute = new StringBuilder("  p99 by minute of the window:");
        long minute = 60_000_000_000L;
        for (int from = firstPage; from < lastPage; ) {
            long end = servedAt[from] + minute;
            int to = from;
            while (to < lastPage && servedAt[to] < end) {
                to++;
            }
            Histogram h = lag.lags(java.util.Arrays.copyOf(servedAt, to), from, perPage, (from + 1L) * perPage).millis();
            byMinute.append(String.format(" %,d ms;", h.getValueAtPercentile(99)));
            from = to;
        }
        System.out.println(byMinute);
    }

    private void cpuReport(Map<String, Double> before, Map<String, Double> after, double window) {
        StringBuilder line = new StringBuilder("CPU seconds per 1,000 GPUs per minute:");
        double minutes = window / 60;
        double total = 0;
        Map<String, Double> used = new LinkedHashMap<>();
        before.forEach((name, b) -> used.put(name, after.get(name) - b));
        for (Map.Entry<String, Double> e : used.entrySet()) {
            if (!e.getKey().endsWith(" garbage collection")) {
                total += e.getValue();
            }
            line.append(String.format(" %s %.2f;", e.getKey(), e.getValue() / (gpus / 1000.0) / minutes));
        }
        line.append(String.format(" all %.2f (%.2f of the machine's %d cores busy)", total / (gpus / 1000.0) / minutes,
                total / window, Runtime.getRuntime().availableProcessors()));
        System.out.println(line);
    }

    private boolean awaitEmptyCollectors(Duration atMost) throws Exception {
        long end = System.nanoTime() + atMost.toNanos();
        while (System.nanoTime() < end) {
            if (held(suite) == 0 && (second == null || held(second) == 0)) {
                return true;
            }
            Thread.sleep(500);
        }
        System.out.printf("the collectors still held %,.0f values %s after the last page%n",
                held(suite) + (second == null ? 0 : held(second)), atMost);
        return false;
    }

    /** The usage values a collector holds for the ledger (its buffer gauge). */
    private double held(Suite s) throws Exception {
        URI metrics = s.managementUrl(Service.COLLECTOR).resolve("/q/metrics");
        String page = http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = HELD.matcher(page);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private double accepted(Suite s) throws Exception {
        URI metrics = s.managementUrl(Service.COLLECTOR).resolve("/q/metrics");
        String page = http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = ACCEPTED.matcher(page);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
