package io.gpumeter.collector.service;

import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The thread a buffer's lingered flushes run on: its own, so that a watched fact's delivery never waits for a free
 * worker behind a replay's or a push's work, and one, so that one buffer's flushes run one after another.
 */
public final class FlushThread implements DeliveryBuffer.Starter, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(FlushThread.class);

    private final ScheduledExecutorService thread;

    public FlushThread(String name) {
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void after(Duration wait, Runnable flush) {
        try {
            thread.schedule(() -> {
                try {
                    flush.run();
                } catch (RuntimeException e) { // the timer's flush tries again; a scheduled task's failure is silent
                    LOG.warn("a flush failed", e);
                }
            }, wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("stopping: the flush is left to the last one"); // after close, at shutdown
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
