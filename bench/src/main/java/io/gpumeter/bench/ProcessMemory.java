package io.gpumeter.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Peak memory of one service process while something runs: the kernel's resident-set high-water mark (VmHWM, reset
 * first through clear_refs where Linux allows it) and the largest JVM heap use seen in its /q/metrics, polled.
 */
final class ProcessMemory implements AutoCloseable {

    /**
     * How often the heap is read. Every read renders the service's whole metrics page, which at 10 reads a second
     * cost a replaying collector a tenth of its CPU: the measure must not be a load of its own.
     */
    private static final Duration POLL = Duration.ofSeconds(1);

    private final long pid;
    private final URI metrics;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final AtomicLong maxHeap = new AtomicLong(-1);
    private final boolean hwmReset;
    private final Thread poller;
    private volatile boolean running = true;

    private ProcessMemory(long pid, URI metrics) {
        this.pid = pid;
        this.metrics = metrics;
        this.hwmReset = resetHighWaterMark(pid);
        this.poller = new Thread(this::poll, "heap-poller");
        this.poller.setDaemon(true);
        this.poller.start();
    }

    /**
     * Starts watching the child process of this JVM whose command line contains {@code marker}; {@code management}
     * is the service's management URL, where its /q/metrics is served.
     */
    static Optional<ProcessMemory> watch(String marker, URI management) {
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .findFirst()
                .map(p -> new ProcessMemory(p.pid(), management.resolve("/q/metrics")));
    }

    long pid() {
        return pid;
    }

    /** The report line: peak RSS since the reset (or since start) and the largest heap use polled. */
    String summary() {
        String hwm = status("VmHWM").map(v -> v + (hwmReset ? " peak RSS during the runs" : " peak RSS since start"))
                .orElse("peak RSS unknown (no /proc)");
        long heap = maxHeap.get();
        return String.format("pid %d: %s, %s now; max JVM heap used %s (polled every %d ms)", pid, hwm,
                status("VmRSS").orElse("?"), heap < 0 ? "unknown" : String.format("%,d MiB", heap >> 20), POLL.toMillis());
    }

    private void poll() {
        while (running) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(5)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                long heap = heapUsed(r.body());
                maxHeap.accumulateAndGet(heap, Math::max);
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException | RuntimeException e) {
                // A busy service may miss one poll; the next one counts.
            }
        }
    }

    /** Σ jvm_memory_used_bytes over the heap pools in a Prometheus text page. */
    static long heapUsed(String page) {
        long sum = 0;
        for (String line : page.split("\n")) {
            if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
                sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    /** Writing 5 to clear_refs resets VmHWM to the current RSS (Linux 4.0 and later, own processes only). */
    private static boolean resetHighWaterMark(long pid) {
        try {
            Files.writeString(Path.of("/proc/" + pid + "/clear_refs"), "5");
            return true;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    private Optional<String> status(String field) {
        try {
            return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
                    .filter(l -> l.startsWith(field + ":"))
                    .map(l -> l.substring(field.length() + 1).strip())
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        running = false;
        poller.interrupt();
    }
}
