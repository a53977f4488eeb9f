package io.gpumeter.collector.governance;

import io.gpumeter.collector.client.LedgerClient;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.service.DeliveryBuffer;
import io.gpumeter.collector.service.FlushThread;
import io.gpumeter.common.fact.GovernanceBatch;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;


/**
 * Watched governance facts on their way to the ledger, buffered like the metering facts. They are this collector's
 * cluster's, except those added for another (the driver versions of a usage push that names its cluster): a batch
 * taken from the buffer goes as one delivery per cluster.
 */
@ApplicationScoped
public class GovernanceBuffer {

    /** A fact of another cluster than the collector's own. */
    private record OfCluster(String cluster, Object fact) {
    }

    private final DeliveryBuffer buffer;
    private final String cluster;
    private final FlushThread flushes = new FlushThread("governance-delivery");

    public GovernanceBuffer(LedgerClient ledger, CollectorConfig config, MeterRegistry metrics) {
        this.cluster = config.cluster();
        this.buffer = new DeliveryBuffer("governance facts", config.delivery().bufferCapacity(),
                config.delivery().batchSize(), taken -> byCluster(taken).forEach(
                        (c, facts) -> ledger.deliver(GovernanceBatch.of(c, facts))), config.delivery().linger(), flushes);
        metrics.gauge("gpumeter.collector.buffer.governance.facts", buffer, DeliveryBuffer::size);
        FunctionCounter.builder("gpumeter.collector.delivery.refused", buffer, DeliveryBuffer::refused)
                .tag("facts", "governance").description("facts the ledger refused for good, set aside").register(metrics);
    }

    public void add(Object fact) {
        buffer.add(fact);
    }

    /** Adds a fact of the named cluster; null or the collector's own is the same as {@link #add(Object)}. */
    public void add(String cluster, Object fact) {
        buffer.add(cluster == null || cluster.equals(this.cluster) ? fact : new OfCluster(cluster, fact));
    }

    private Map<String, List<Object>> byCluster(List<Object> taken) {
        Map<String, List<Object>> out = new LinkedHashMap<>();
        for (Object fact : taken) {
            if (fact instanceof OfCluster of) {
                out.computeIfAbsent(of.cluster(), c -> new ArrayList<>()).add(of.fact());
            } else {
                out.computeIfAbsent(cluster, c -> new ArrayList<>()).add(fact);
            }
        }
        return out;
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

    @PreDestroy
    void stop() {
        flushes.close();
    }

    public int flush() {
        return buffer.flush();
    }
}
