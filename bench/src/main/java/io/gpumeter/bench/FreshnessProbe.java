package io.gpumeter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.support.ClassicRequestBuilder;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Writes pods into the watched cluster at a steady rate and measures, for each, the time from its writing (its
 * PodScheduled transition) to the first Q1 answer of its card that names it. Each pod's card is asked from a thread of
 * its own, every {@code poll} from the pod's writing until it shows, through a blocking client whose calling thread does
 * the I/O: a poll adds no hand-off of its own, and the pod became visible between the last answer that did not name it
 * (asked at {@link Sample#lastMiss}) and the one that did, which bounds what the polling adds to each figure.
 */
final class FreshnessProbe implements AutoCloseable {

    /**
     * One pod: when it was written (the wall clock, as the collector stamps what it observed), seconds from its
     * writing to the answer that showed it, and to the sending of the last read that did not (0 when the first read
     * showed it): it became visible in between.
     */
    record Sample(String pod, Instant written, double seconds, double lastMiss) {
    }

    /** A round's pods, those not shown within the patience apart, and when it ran (System.nanoTime). */
    record Round(String label, List<Sample> samples, int notShown, long startNanos, long endNanos) {

        double percentile(double p) {
            return FreshnessProbe.percentile(samples.stream().mapToDouble(Sample::seconds).toArray(), p);
        }

        String summary() {
            double[] window = samples.stream().mapToDouble(s -> s.seconds() - s.lastMiss()).toArray();
            return String.format("%-22s p50 %.3f s, p99 %.3f s, max %.3f s of %d%s; polling's own resolution: each pod "
                            + "became visible at most %.0f ms (mean; max %.0f ms) before the answer that showed it",
                    label, percentile(0.50), percentile(0.99), percentile(1.0), samples.size(),
                    notShown == 0 ? "" : String.format(" (%d not shown)", notShown),
                    1000 * Arrays.stream(window).average().orElse(0), 1000 * Arrays.stream(window).max().orElse(0));
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The nearest rank: the smallest value with at least {@code p} of them at or below it. */
    static double percentile(double[] values, double p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted.length == 0 ? Double.NaN : sorted[Math.max(0, rank - 1)];
    }

    private final URI ledger;
    private final String authorization;
    private final long pollNanos;
    private final long patienceNanos;
    private final ExecutorService pollers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "q1-poller");
        t.setDaemon(true);
        return t;
    });
    /** Kept-alive connections enough for every pod still polled at once; each poller's thread does its own I/O. */
    private final CloseableHttpClient http = HttpClients.custom().disableAutomaticRetries().disableCookieManagement()
            .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create().setMaxConnTotal(128)
                    .setMaxConnPerRoute(128)
                    .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(Timeout.ofSeconds(5))
                            .setSocketTimeout(Timeout.ofSeconds(30)).build())
                    .build())
            .build();

    FreshnessProbe(URI ledger, String authorization, Duration poll, Duration patience) {
        this.ledger = ledger;
        this.authorization = authorization;
        this.pollNanos = poll.toNanos();
        this.patienceNanos = patience.toNanos();
    }

    /**
     * Writes {@code pods} pods named {@code label-N} on cards {@code firstCard} on, {@code perSecond} a second, and
     * waits until each showed or its patience ran out.
     */
    Round run(String label, LiveCluster cluster, int firstCard, int pods, double perSecond) throws Exception {
        long interval = (long) (1e9 / perSecond);
        long start = System.nanoTime();
        List<Future<Sample>> polled = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
            long due = start + i * interval;
            while (System.nanoTime() < due) {
                LockSupport.parkNanos(due - System.nanoTime());
            }
            String name = label + "-" + i;
            LiveCluster.Card card = cluster.card(firstCard + i);
            long written = System.nanoTime();
            Instant at = Instant.now();
            cluster.createPod(name, firstCard + i, at);
            polled.add(pollers.submit(() -> poll(card.uuid(), name, at, written)));
        }
        List<Sample> samples = new ArrayList<>();
        int notShown = 0;
        for (Future<Sample> f : polled) {
            Sample s = f.get();
            if (s == null) {
                notShown++;
            } else {
                samples.add(s);
            }
        }
        return new Round(label, samples, notShown, start, System.nanoTime());
    }

    /** Asks Q1 for the card every poll interval from {@code written} until it names the pod; null past the patience. */
    private Sample poll(String uuid, String pod, Instant at, long written) {
        URI q1 = ledger.resolve("/api/v1/gpus/" + uuid + "/occupants");
        long lastMiss = written;
        long due = written;
        while (true) {
            long sent = System.nanoTime();
            if (sent - written > patienceNanos) {
                return null;
            }
            if (names(q1, pod)) {
                long answered = System.nanoTime();
                return new Sample(pod, at, (answered - written) / 1e9, (lastMiss - written) / 1e9);
            }
            lastMiss = sent;
            due = Math.max(due + pollNanos, System.nanoTime());
            LockSupport.parkNanos(due - System.nanoTime());
        }
    }

    /** Whether Q1's answer for the card (now) names the pod; a card the ledger does not know yet is a 404. */
    private boolean names(URI q1, String pod) {
        try {
            return http.execute(ClassicRequestBuilder.get(q1).addHeader("Authorization", authorization).build(), r -> {
                String body = EntityUtils.toString(r.getEntity());
                if (r.getCode() != 200) {
                    return false;
                }
                for (JsonNode occupant : JSON.readTree(body)) {
                    if (pod.equals(occupant.path("pod").asText()) && LiveCluster.NAMESPACE.equals(occupant.path("namespace").asText())) {
                        return true;
                    }
                }
                return false;
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        pollers.shutdownNow();
        pollers.awaitTermination(5, TimeUnit.SECONDS);
        http.close(CloseMode.IMMEDIATE);
    }
}
