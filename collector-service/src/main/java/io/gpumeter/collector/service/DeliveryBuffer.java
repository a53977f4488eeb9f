package io.gpumeter.collector.service;

import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Facts waiting for the ledger. Bounded: when the ledger is away long enough to fill it, producers wait rather
 * than drop facts; a batch the ledger did not take goes back to the front, in order.
 */
public final class DeliveryBuffer {

    private static final Logger LOG = Logger.getLogger(DeliveryBuffer.class);

    private final String what;
    private final LinkedBlockingDeque<Object> pending;
    private final int batchSize;
    private final Consumer<List<Object>> send;

    /**
     * @param what a name for logs ("facts", "governance facts")
     * @param send delivers one batch, throwing when the ledger did not take it
     */
    public DeliveryBuffer(String what, int capacity, int batchSize, Consumer<List<Object>> send) {
        this.what = what;
        this.pending = new LinkedBlockingDeque<>(capacity);
        this.batchSize = batchSize;
        this.send = send;
    }

    public void add(Object fact) {
        try {
            while (!pending.offerLast(fact, 5, TimeUnit.SECONDS)) {
                LOG.warnf("%s buffer full (%d); waiting for the ledger", what, pending.size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public int size() {
        return pending.size();
    }

    /** Sends everything pending, batch by batch; stops at the first failure and keeps the rest. */
    public synchronized int flush() {
        int sent = 0;
        while (!pending.isEmpty()) {
            List<Object> taken = new ArrayList<>();
            pending.drainTo(taken, batchSize);
            try {
                send.accept(taken);
                sent += taken.size();
            } catch (RuntimeException e) {
                for (int i = taken.size() - 1; i >= 0; i--) {
                    pending.offerFirst(taken.get(i));
                }
                LOG.warnf("ledger did not take %d %s, will retry: %s", taken.size(), what, e.getMessage());
                break;
            }
        }
        return sent;
    }
}
