package io.gpumeter.collector.service;

import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MeteringChangesTest {

    static final Instant T = Instant.parse("2026-05-01T00:00:00Z");

    static NodeFact node(String rv, WatchEventType type, Map<String, String> labels, List<RegisteredGpu> gpus) {
        return new NodeFact("n1", "u", rv, type, T, labels, gpus);
    }

    @Test
    void nodeHeartbeatsAreDroppedButLabelAndRegistrationChangesPass() {
        MeteringChanges changes = new MeteringChanges();
        Map<String, String> labels = Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3");
        List<RegisteredGpu> gpus = List.of(new RegisteredGpu("GPU-1", "H100", 81920, 100, 10, 0, true));
        assertTrue(changes.isNews(node("1", WatchEventType.ADDED, labels, gpus)));
        assertFalse(changes.isNews(node("2", WatchEventType.MODIFIED, labels, gpus)), "status heartbeat");
        assertTrue(changes.isNews(node("3", WatchEventType.MODIFIED, Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3",
                "nvidia.com/gpu.replicas", "4"), gpus)), "label change");
        assertTrue(changes.isNews(node("4", WatchEventType.MODIFIED, Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3",
                "nvidia.com/gpu.replicas", "4"), List.of())), "registration change");
        assertTrue(changes.isNews(node("5", WatchEventType.DELETED, labels, gpus)), "deletion");
        assertTrue(changes.isNews(node("6", WatchEventType.ADDED, labels, gpus)), "re-added after deletion");
    }

    @Test
    void namespaceAnnotationChurnIsDroppedButRelabelsPass() {
        MeteringChanges changes = new MeteringChanges();
        NamespaceFact first = new NamespaceFact("ml", "u", "1", WatchEventType.ADDED, T, Map.of("gpumeter.io/tenant", "a"), Map.of());
        NamespaceFact same = new NamespaceFact("ml", "u", "2", WatchEventType.MODIFIED, T, Map.of("gpumeter.io/tenant", "a"), Map.of());
        NamespaceFact relabel = new NamespaceFact("ml", "u", "3", WatchEventType.MODIFIED, T, Map.of("gpumeter.io/tenant", "b"), Map.of());
        assertTrue(changes.isNews(first));
        assertFalse(changes.isNews(same));
        assertTrue(changes.isNews(relabel));
    }
}
