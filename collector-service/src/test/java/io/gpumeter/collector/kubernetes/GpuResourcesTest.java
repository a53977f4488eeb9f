package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The collector carries every resource of NVIDIA's domain, so renamed HAMi resources reach the ledger's rules. */
class GpuResourcesTest {

    static Pod pod(String resource) {
        return Serialization.unmarshal("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ml","uid":"u","resourceVersion":"1"},
                 "spec":{"containers":[{"name":"main","resources":{"limits":{"cpu":"2","%s":"3"}}}]}}"""
                .formatted(resource), Pod.class);
    }

    @ParameterizedTest
    @CsvSource({"nvidia.com/gpu", "nvidia.com/mig-1g.10gb", "nvidia.com/gpumem", "nvidia.com/gpucores",
            "nvidia.com/gpumem-percentage", "nvidia.com/vgpu", "nvidia.com/vgpu-memory"})
    void everyResourceOfNvidiasDomainIsCarried(String resource) {
        PodFact fact = PodTranslator.translate(pod(resource), WatchEventType.ADDED, Instant.EPOCH);
        assertEquals(Map.of(resource, 3L), fact.gpuResources());
    }

    @ParameterizedTest
    @CsvSource({"example.com/gpu", "nvidia.com/", "amd.com/gpu", "nvidia.comx/gpu"})
    void otherResourcesAreNotGpus(String resource) {
        assertEquals("no GPU requested", assertThrows(Skip.class,
                () -> PodTranslator.translate(pod(resource), WatchEventType.ADDED, Instant.EPOCH)).reason());
    }
}
