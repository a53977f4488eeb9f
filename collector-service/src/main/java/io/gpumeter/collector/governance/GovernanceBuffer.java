package io.gpumeter.collector.governance;

import io.gpumeter.collector.client.LedgerClient;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.service.DeliveryBuffer;
import io.gpumeter.common.fact.GovernanceBatch;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;


/** Watched governance facts on their way to the ledger, buffered like the metering facts. */
@ApplicationScoped
public class GovernanceBuffer {

    private final DeliveryBuffer buffer;

    public GovernanceBuffer(LedgerClient ledger, CollectorConfig config, MeterRegistry metrics) {
        this.buffer = new DeliveryBuffer("governance facts", config.delivery().bufferCapacity(),
                config.delivery().batchSize(), taken -> ledger.deliver(GovernanceBatch.of(config.cluster(), taken)));
        metrics.gauge("gpumeter.collector.buffer.governance.facts", buffer, DeliveryBuffer::size);
        FunctionCounter.builder("gpumeter.collector.delivery.refused", buffer, DeliveryBuffer::refused)
                .tag("facts", "governance").description("facts the ledger refused for good, set aside").register(metrics);
    }

    public void add(Object fact) {
        buffer.add(fact);
    }

    public int size() {
        return buffer.size();
    }

    @Scheduled(every = "{gpumeter.collector.delivery.flush-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduledFlush() {
        flush();
    }

    void onStop(@Observes ShutdownEvent event) {
        flush();
    }

    public int flush() {
        return buffer.flush();
    }
}
