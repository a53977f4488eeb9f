package io.gpumeter.collector.service;

import io.gpumeter.collector.client.LedgerClient;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PodFact;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

/**
 * Holds watched facts until the ledger has them. Bounded: when the ledger is away long enough to fill it, the
 * watch waits rather than dropping facts; a failed batch goes back to the front, in order.
 */
@ApplicationScoped
public class FactBuffer {

    private static final Logger LOG = Logger.getLogger(FactBuffer.class);

    private final LinkedBlockingDeque<Object> pending;
    private final LedgerClient ledger;
    private final CollectorConfig config;

    public FactBuffer(LedgerClient ledger, CollectorConfig config, MeterRegistry metrics) {
        this.ledger = ledger;
        this.config = config;
        this.pending = new LinkedBlockingDeque<>(config.delivery().bufferCapacity());
        metrics.gauge("gpumeter.collector.buffer.facts", pending, LinkedBlockingDeque::size);
    }

    public void add(Object fact) {
        try {
            while (!pending.offerLast(fact, 5, TimeUnit.SECONDS)) {
                LOG.warnf("fact buffer full (%d); waiting for the ledger", pending.size());
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
            pending.drainTo(taken, config.delivery().batchSize());
            try {
                ledger.deliver(batch(taken));
                sent += taken.size();
            } catch (RuntimeException e) {
                for (int i = taken.size() - 1; i >= 0; i--) {
                    pending.offerFirst(taken.get(i));
                }
                LOG.warnf("ledger did not take %d facts, will retry: %s", taken.size(), e.getMessage());
                break;
            }
        }
        return sent;
    }

    private FactBatch batch(List<Object> facts) {
        List<NamespaceFact> namespaces = new ArrayList<>();
        List<NodeFact> nodes = new ArrayList<>();
        List<PodFact> pods = new ArrayList<>();
        for (Object fact : facts) {
            if (fact instanceof PodFact p) {
                pods.add(p);
            } else if (fact instanceof NodeFact n) {
                nodes.add(n);
            } else if (fact instanceof NamespaceFact ns) {
                namespaces.add(ns);
            }
        }
        return new FactBatch(config.cluster(), namespaces, nodes, pods);
    }
}
