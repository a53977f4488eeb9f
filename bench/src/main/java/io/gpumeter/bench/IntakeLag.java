package io.gpumeter.bench;

import org.HdrHistogram.Histogram;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lag from scrape to books. A poller reads the ledger's count of usage values committed
 * ({@code gpumeter_ledger_usage_values_total{outcome="stored"}}) every {@link #POLL}; the i-th page served is in the
 * books at the first poll whose count, less the count at the start, holds the values of the first i pages. That is
 * first-in-first-out accounting: a page overtaken by a later one is credited with the later one's time, and the
 * lag's resolution is the poll's.
 */
final class IntakeLag implements AutoCloseable {

    static final Duration POLL = Duration.ofMillis(200);
    private static final Pattern STORED = Pattern.compile("(?m)^gpumeter_ledger_usage_values_total\\{outcome=\"stored\",?\\} (\\S+)$");

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI metrics;
    private final Thread poller;
    private long[] at = new long[4096];
    private long[] stored = new long[4096];
    private int polls;
    private volatile boolean stop;

    IntakeLag(URI ledgerManagement) {
        this.metrics = ledgerManagement.resolve("/q/metrics");
        this.poller = new Thread(this::poll, "intake-lag");
        poller.setDaemon(true);
    }

    IntakeLag start() {
        poller.start();
        return this;
    }

    /** The ledger's count of values committed, now. */
    long storedNow() {
        try {
            String page = http.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Matcher m = STORED.matcher(page);
            return m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void poll() {
        while (!stop) {
            long count = storedNow();
            long now = System.nanoTime();
            synchronized (this) {
                if (polls == at.length) {
                    at = Arrays.copyOf(at, polls * 2);
                    stored = Arrays.copyOf(stored, polls * 2);
                }
                at[polls] = now;
                stored[polls++] = count;
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Each page's lag in milliseconds, of the pages served from {@code from} (System.nanoTime) on, given the values one
     * page brings and the count before the first of them; pages not yet in the books count apart.
     */
    synchronized Lags lags(long[] servedAt, int firstPage, long valuesPerPage, long storedBefore) {
        Histogram all = new Histogram(3_600_000L, 3);
        int waiting = 0;
        int j = 0;
        for (int i = firstPage; i < servedAt.length; i++) {
            long needed = storedBefore + (i - firstPage + 1) * valuesPerPage;
            while (j < polls && (stored[j] < needed || at[j] < servedAt[i])) {
                j++;
            }
            if (j == polls) {
                waiting = servedAt.length - i;
                break;
            }
            all.recordValue(Math.max(0, (at[j] - servedAt[i]) / 1_000_000));
        }
        return new Lags(all, waiting);
    }

    /** The lags of the pages that reached the books, and how many pages had not when the polls ended. */
    record Lags(Histogram millis, int waiting) {
        String line() {
            return String.format("p50 %,d ms, p99 %,d ms, max %,d ms over %,d pages%s", millis.getValueAtPercentile(50),
                    millis.getValueAtPercentile(99), millis.getMaxValue(), millis.getTotalCount(),
                    waiting == 0 ? "" : String.format("; %,d pages not in the books yet", waiting));
        }
    }

    @Override
    public void close() {
        stop = true;
        poller.interrupt();
    }
}
