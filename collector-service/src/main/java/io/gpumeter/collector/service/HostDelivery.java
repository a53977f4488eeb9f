package io.gpumeter.collector.service;

import io.gpumeter.collector.client.LedgerClient;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.host.HostFacts;
import io.gpumeter.collector.host.HostTracks;
import io.gpumeter.common.fact.HostBatch;
import io.gpumeter.common.problem.ApiProblem;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.jboss.logging.Logger;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Closed host minutes on their way to the ledger: held and sent every {@code gpumeter.collector.host.flush-interval}
 * in batches, a batch leaving only once the ledger took it (a minute sent twice is stored once); or, with the flush
 * interval off, sent before the push that closed them is answered. Bounded: a push that finds the buffer full is
 * refused before it is read, so nothing of it is kept.
 */
@ApplicationScoped
public class HostDelivery {

    private static final Logger LOG = Logger.getLogger(HostDelivery.class);

    private final LedgerClient ledger;
    private final boolean buffered;
    private final int capacity;
    private final int batchSize;
    private final Deque<HostTracks.Closed> held = new ArrayDeque<>();

    public HostDelivery(LedgerClient ledger, CollectorConfig config, MeterRegistry metrics) {
        this.ledger = ledger;
        this.buffered = UsageDelivery.interval(config.host().flushInterval()) != null;
        this.capacity = config.host().bufferCapacity();
        this.batchSize = config.host().batchSize();
        metrics.gauge("gpumeter.collector.buffer.host", this, HostDelivery::size);
    }

    /** Whether minutes are held and sent on the interval, rather than before a push is answered. */
    public boolean buffered() {
        return buffered;
    }

    /** Refuses a push while the buffer is full: a 503 before anything of the push is read. */
    public void requireRoom() {
        if (buffered && size() >= capacity) {
            throw ApiProblem.unavailable("the host buffer holds " + size() + " of " + capacity
                    + " minutes while the ledger catches up; nothing of this body is stored, send it again");
        }
    }

    /** Hands closed minutes on: held, or sent at once (throwing a 503 problem when the ledger did not take them). */
    public void accept(List<HostTracks.Closed> closed) {
        if (closed.isEmpty()) {
            return;
        }
        if (buffered) {
            synchronized (held) {
                held.addAll(closed);
            }
            return;
        }
        for (HostBatch batch : HostFacts.batches(closed)) {
            send(batch);
        }
    }

    public int size() {
        synchronized (held) {
            return held.size();
        }
    }

    @Scheduled(every = "{gpumeter.collector.host.flush-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduledFlush() {
        flush();
    }

    void onStop(@Observes ShutdownEvent event) {
        flush();
    }

    /** Sends what is held, a batch at a time; stops at the first the ledger did not take. Returns the minutes sent. */
    public synchronized int flush() {
        int sent = 0;
        while (true) {
            List<HostTracks.Closed> chunk = new ArrayList<>();
            synchronized (held) {
                for (HostTracks.Closed c : held) {
                    if (chunk.size() == batchSize) {
                        break;
                    }
                    chunk.add(c);
                }
            }
            if (chunk.isEmpty()) {
                return sent;
            }
            try {
                for (HostBatch batch : HostFacts.batches(chunk)) {
                    ledger.deliver(batch);
                }
            } catch (RuntimeException e) {
                if (!DeliveryBuffer.refusedForGood(e)) {
                    LOG.warnf("the ledger did not take %d host minutes, will retry: %s", chunk.size(), e.getMessage());
                    return sent;
                }
                // a batch the ledger refuses would be refused again: set aside, so the minutes behind it flow
                LOG.errorf("the ledger refused %d host minutes for good; they are set aside: %s", chunk.size(),
                        e.getMessage());
            }
            synchronized (held) {
                for (int i = 0; i < chunk.size(); i++) {
                    held.pollFirst();
                }
            }
            sent += chunk.size();
        }
    }

    private void send(HostBatch batch) {
        try {
            ledger.deliver(batch);
        } catch (ApiProblem e) {
            throw e;
        } catch (FaultToleranceException | jakarta.ws.rs.ProcessingException | jakarta.ws.rs.WebApplicationException e) {
            throw ApiProblem.unavailable("the ledger is unreachable or failing; nothing of this body is stored, send it again");
        }
    }
}
