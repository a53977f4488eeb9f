package io.gpumeter.collector.service;

import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Facts waiting for the ledger. Bounded: when the ledger is away long enough to fill it, producers wait rather
 * than drop facts. A batch stays at the front of the queue while it is being sent and leaves it only once the
 * ledger took it, so a refused batch needs no putting back — which could not always succeed once producers had
 * filled the space it left — and the size always counts every fact not yet delivered.
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

    /**
     * Sends everything pending, batch by batch; stops at the first failure and keeps the rest. Only this method
     * removes facts (producers add at the tail), so the head it read is still the head after sending.
     */
    public synchronized int flush() {
        int sent = 0;
        while (!pending.isEmpty()) {
            List<Object> batch = new ArrayList<>(Math.min(batchSize, pending.size()));
            Iterator<Object> head = pending.iterator();
            while (batch.size() < batchSize && head.hasNext()) {
                batch.add(head.next());
            }
            try {
                send.accept(batch);
            } catch (RuntimeException e) {
                LOG.warnf("ledger did not take %d %s, will retry: %s", batch.size(), what, e.getMessage());
                break;
            }
            for (int i = 0; i < batch.size(); i++) {
                pending.pollFirst();
            }
            sent += batch.size();
        }
        return sent;
    }
}
