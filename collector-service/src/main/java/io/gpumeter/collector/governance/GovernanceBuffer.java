package io.gpumeter.collector.governance;

import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.common.fact.GovernanceBatch;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

/**
 * Holds watched governance facts until the ledger has them, like the metering buffer: bounded, waits rather than
 * drops, and puts a failed batch back at the front in order.
 */
@ApplicationScoped
public class GovernanceBuffer {

    private static final Logger LOG = Logger.getLogger(GovernanceBuffer.class);

    private final LinkedBlockingDeque<Object> pending;
    private final GovernanceLedgerClient ledger;
    private final CollectorConfig config;

    public GovernanceBuffer(GovernanceLedgerClient ledger, CollectorConfig config, MeterRegistry metrics) {
        this.ledger = ledger;
        this.config = config;
        this.pending = new LinkedBlockingDeque<>(config.delivery().bufferCapacity());
        metrics.gauge("gpumeter.collector.buffer.governance.facts", pending, LinkedBlockingDeque::size);
    }

    public void add(Object fact) {
        try {
            while (!pending.offerLast(fact, 5, TimeUnit.SECONDS)) {
                LOG.warnf("governance buffer full (%d); waiting for the ledger", pending.size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public int size() {
        return pending.size();
    }

    @Scheduled(every = "{gpumeter.collector.delivery.flush-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduledFlush() {
        flush();
    }

    void onStop(@Observes ShutdownEvent event) {
        flush();
    }

    /** Sends everything pending, batch by batch; stops at the first failure and keeps the rest. */
    public synchronized int flush() {
        int sent = 0;
        while (!pending.isEmpty()) {
            List<Object> taken = new ArrayList<>();
            pending.drainTo(taken, config.delivery().batchSize());
            try {
                ledger.deliver(GovernanceBatch.of(config.cluster(), taken));
                sent += taken.size();
            } catch (RuntimeException e) {
                for (int i = taken.size() - 1; i >= 0; i--) {
                    pending.offerFirst(taken.get(i));
                }
                LOG.warnf("ledger did not take %d governance facts, will retry: %s", taken.size(), e.getMessage());
                break;
            }
        }
        return sent;
    }
}
