package io.gpumeter.collector.service;

import io.gpumeter.collector.client.LedgerClient;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.common.fact.UsageSample;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.DurationConverter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Buffered usage delivery: pushes and pulls add to a {@link UsageBuffer}; one thread flushes it every
 * {@code gpumeter.collector.usage.flush-interval}, or at once when a batch's worth is open, keeping up to
 * {@code gpumeter.collector.delivery.usage-in-flight} batches in flight, and after a failed flush waits twice as
 * long each time (up to a minute) before trying again.
 */
@ApplicationScoped
public class UsageDelivery {

    private static final Logger LOG = Logger.getLogger(UsageDelivery.class);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

    private final Duration interval;
    private final int batchSize;
    private final UsageBuffer buffer;
    private final Object wake = new Object();
    private volatile boolean running;
    private Thread flusher;

    public UsageDelivery(LedgerClient ledger, CollectorConfig config, MeterRegistry metrics) {
        this.interval = interval(config.usage().flushInterval());
        this.batchSize = config.usage().batchSize();
        this.buffer = new UsageBuffer(config.usage().bufferCapacity(), batchSize,
                config.delivery().usageInFlight(), ledger::deliver);
        metrics.gauge("gpumeter.collector.buffer.usage", buffer, UsageBuffer::size);
    }

    /** Whether pushes are buffered; false when every push is delivered at once. */
    public boolean buffered() {
        return interval != null;
    }

    /** Adds a body's samples whole, or throws {@link UsageBuffer.Full} having added none. */
    public UsageBuffer.Added add(String cluster, List<UsageSample> samples) {
        UsageBuffer.Added added = buffer.add(cluster, samples);
        if (buffer.open() >= batchSize) {
            synchronized (wake) {
                wake.notifyAll();
            }
        }
        return added;
    }

    /** Values not yet delivered. */
    public int size() {
        return buffer.size();
    }

    /** Sends what is held now; returns the values delivered. */
    public int flush() {
        return buffer.flush();
    }

    void onStart(@Observes StartupEvent event) {
        if (buffered()) {
            running = true;
            flusher = new Thread(this::run, "usage-flusher");
            flusher.setDaemon(true);
            flusher.start();
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        if (flusher != null) {
            running = false;
            flusher.interrupt();
            try {
                flusher.join(Duration.ofSeconds(30).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            buffer.flush();
        }
    }

    private void run() {
        Duration wait = interval;
        long due = System.nanoTime() + interval.toNanos();
        while (running) {
            try {
                synchronized (wake) {
                    long left = due - System.nanoTime();
                    boolean backingOff = !wait.equals(interval);
                    boolean full = !backingOff && buffer.open() >= batchSize;
                    if (left > 0 && !full) {
                        wake.wait(Math.max(1, left / 1_000_000));
                        continue;
                    }
                }
                // A flush that delivered something found the ledger there, though a batch sent beside it may have
                // failed (a circuit breaker lets one trial through when half-open): the next comes on the interval.
                int sent = buffer.flush();
                wait = buffer.stalled() && sent == 0 ? backoff(wait) : interval;
                due = System.nanoTime() + wait.toNanos();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.errorf(e, "usage flush failed");
                wait = backoff(wait);
                due = System.nanoTime() + wait.toNanos();
            }
        }
    }

    private Duration backoff(Duration wait) {
        Duration doubled = wait.multipliedBy(2);
        return doubled.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : doubled;
    }

    /** The flush interval, or null for "deliver each push at once" ("off", "0", or a zero duration). */
    static Duration interval(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("off") || v.equals("0")) {
            return null;
        }
        Duration d = DurationConverter.parseDuration(v);
        return d == null || d.isZero() || d.isNegative() ? null : d;
    }
}
