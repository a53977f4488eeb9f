package io.gpumeter.collector.service;

import io.gpumeter.collector.client.LedgerClient;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.common.fact.DeviceClassFact;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.ResourceClaimFact;
import io.gpumeter.common.fact.ResourceSliceFact;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;

/** Watched metering facts (namespaces, nodes, pods, DRA claims, slices and classes) on their way to the ledger. */
@ApplicationScoped
public class FactBuffer {

    private final DeliveryBuffer buffer;
    private final CollectorConfig config;
    private final FlushThread flushes = new FlushThread("facts-delivery");

    public FactBuffer(LedgerClient ledger, CollectorConfig config, MeterRegistry metrics) {
        this.config = config;
        this.buffer = new DeliveryBuffer("facts", config.delivery().bufferCapacity(), config.delivery().batchSize(),
                taken -> ledger.deliver(batch(taken)), config.delivery().linger(), flushes);
        metrics.gauge("gpumeter.collector.buffer.facts", buffer, DeliveryBuffer::size);
        FunctionCounter.builder("gpumeter.collector.delivery.refused", buffer, DeliveryBuffer::refused)
                .tag("facts", "facts").description("facts the ledger refused for good, set aside").register(metrics);
    }

    public void add(Object fact) {
        buffer.add(fact);
    }

    public int size() {
        return buffer.size();
    }

    public int flush() {
        return buffer.flush();
    }

    @PreDestroy
    void stop() {
        flushes.close();
    }

    private FactBatch batch(List<Object> facts) {
        List<NamespaceFact> namespaces = new ArrayList<>();
        List<NodeFact> nodes = new ArrayList<>();
        List<PodFact> pods = new ArrayList<>();
        List<ResourceClaimFact> claims = new ArrayList<>();
        List<ResourceSliceFact> slices = new ArrayList<>();
        List<DeviceClassFact> classes = new ArrayList<>();
        for (Object fact : facts) {
            if (fact instanceof PodFact p) {
                pods.add(p);
            } else if (fact instanceof NodeFact n) {
                nodes.add(n);
            } else if (fact instanceof NamespaceFact ns) {
                namespaces.add(ns);
            } else if (fact instanceof ResourceClaimFact c) {
                claims.add(c);
            } else if (fact instanceof ResourceSliceFact s) {
                slices.add(s);
            } else if (fact instanceof DeviceClassFact d) {
                classes.add(d);
            }
        }
        return new FactBatch(config.cluster(), namespaces, nodes, pods, claims, slices, classes);
    }
}
