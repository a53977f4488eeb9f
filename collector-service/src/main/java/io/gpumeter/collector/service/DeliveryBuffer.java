package io.gpumeter.collector.service;

import io.gpumeter.common.problem.ApiProblem;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Facts waiting for the ledger. Bounded: when the ledger is away long enough to fill it, producers wait rather
 * than drop facts. A batch stays at the front of the queue while it is being sent and leaves it only once the
 * ledger took it, so a refused batch needs no putting back — which could not always succeed once producers had
 * filled the space it left — and the size always counts every fact not yet delivered.
 * <p>
 * With a linger, a fact added to the buffer starts a flush that short while later, so that it reaches the ledger
 * within a fraction of a second rather than at the next tick of the flush timer, and the facts of one burst still go
 * in one batch. Once a flush found the ledger unavailable, adds start nothing until a flush gets through: the timer's
 * flushes are the retries, so an outage is not met with a delivery attempt per fact.
 */
public final class DeliveryBuffer {

    /** Runs a flush after a wait, on a thread that is not the producer's: whoever adds a fact never sends. */
    @FunctionalInterface
    public interface Starter {
        void after(Duration wait, Runnable flush);
    }

    private static final Logger LOG = Logger.getLogger(DeliveryBuffer.class);

    private final String what;
    private final LinkedBlockingDeque<Object> pending;
    private final int batchSize;
    private final Consumer<List<Object>> send;
    private final Duration linger;
    private final Starter starter;
    /** A flush is started and has not begun taking facts: a fact added meanwhile goes with it. */
    private final AtomicBoolean flushStarted = new AtomicBoolean();
    /** The last flush reached the ledger (or none was tried yet). */
    private volatile boolean ledgerTaking = true;
    private long refused;

    /** A buffer that only the caller's flushes (a timer's) empty. */
    public DeliveryBuffer(String what, int capacity, int batchSize, Consumer<List<Object>> send) {
        this(what, capacity, batchSize, send, Duration.ZERO, null);
    }

    /**
     * @param what    a name for logs ("facts", "governance facts")
     * @param send    delivers one batch, throwing when the ledger did not take it
     * @param linger  how long after a fact is added a flush starts; zero (or a null starter) leaves it to the caller's
     * @param starter runs those flushes
     */
    public DeliveryBuffer(String what, int capacity, int batchSize, Consumer<List<Object>> send, Duration linger,
                          Starter starter) {
        this.what = what;
        this.pending = new LinkedBlockingDeque<>(capacity);
        this.batchSize = batchSize;
        this.send = send;
        this.linger = linger;
        this.starter = linger.isZero() || linger.isNegative() ? null : starter;
    }

    public void add(Object fact) {
        try {
            while (!pending.offerLast(fact, 5, TimeUnit.SECONDS)) {
                LOG.warnf("%s buffer full (%d); waiting for the ledger", what, pending.size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (starter != null && ledgerTaking && flushStarted.compareAndSet(false, true)) {
            starter.after(linger, () -> {
                flushStarted.set(false); // what is added from now on may not be in this flush's batches
                flush();
            });
        }
    }

    public int size() {
        return pending.size();
    }

    /** Facts the ledger refused for good and that were set aside so the others could flow. */
    public long refused() {
        return refused;
    }

    /**
     * Sends everything pending, batch by batch; stops at the first sign that the ledger is unavailable and keeps the
     * rest. A batch the ledger refuses for good (its own fault, or the ledger's failure on it) is split until the
     * facts it refuses are alone; those are logged and set aside, and every other fact is delivered — one bad object
     * never holds back the ones behind it. Only this method removes facts (producers add at the tail), so the head
     * it read is still the head after sending.
     */
    public synchronized int flush() {
        int sent = 0;
        try {
            while (!pending.isEmpty()) {
                List<Object> batch = new ArrayList<>(Math.min(batchSize, pending.size()));
                Iterator<Object> head = pending.iterator();
                while (batch.size() < batchSize && head.hasNext()) {
                    batch.add(head.next());
                }
                sent += deliver(batch);
            }
            ledgerTaking = true;
        } catch (Unavailable e) {
            ledgerTaking = false;
            LOG.warnf("ledger did not take %s, will retry: %s", what, e.getCause().getMessage());
        }
        return sent;
    }

    /** Delivers the head of the queue, isolating refused facts; returns how many the ledger took. */
    private int deliver(List<Object> batch) {
        try {
            send.accept(batch);
        } catch (RuntimeException e) {
            if (!refusedForGood(e)) {
                throw new Unavailable(e);
            }
            if (batch.size() == 1) {
                refused++;
                LOG.errorf("ledger refused a %s entry for good; it is set aside: %s — %s", what, batch.get(0), e.getMessage());
                pending.pollFirst();
                return 0;
            }
            int half = batch.size() / 2;
            return deliver(new ArrayList<>(batch.subList(0, half))) + deliver(new ArrayList<>(batch.subList(half, batch.size())));
        }
        for (int i = 0; i < batch.size(); i++) {
            pending.pollFirst();
        }
        return batch.size();
    }

    /** A refusal that a resend would only repeat: the batch's own fault, or the ledger's failure on it. */
    static boolean refusedForGood(RuntimeException e) {
        return e instanceof ApiProblem p && p.status() != 503 && p.status() != 429;
    }

    private static final class Unavailable extends RuntimeException {
        Unavailable(RuntimeException cause) {
            super(cause);
        }
    }
}
