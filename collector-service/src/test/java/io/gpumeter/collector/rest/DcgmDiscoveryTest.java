package io.gpumeter.collector.rest;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.gpumeter.collector.service.UsagePulls;
import io.gpumeter.collector.testing.LedgerStandIn;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** dcgm-exporter pods are found by label only in the exporter's namespace; a look-alike elsewhere is ignored. */
@QuarkusTest
@TestProfile(DcgmDiscoveryTest.Discovering.class)
@WithKubernetesTestServer(crud = true)
@WithTestResource(LedgerStandIn.class)
class DcgmDiscoveryTest {

    public static class Discovering implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.collector.dcgm.discover", "true", "quarkus.scheduler.enabled", "false");
        }
    }

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    UsagePulls pulls;

    private void exporterLike(String namespace, String name, String node, String ip) {
        server.getClient().pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName(name)
                .withNamespace(namespace).withLabels(Map.of("app", "nvidia-dcgm-exporter")).endMetadata()
                .withNewSpec().withNodeName(node).endSpec()
                .withNewStatus().withPhase("Running").withPodIP(ip).endStatus().build()).create();
    }

    @Test
    void onlyPodsInTheExportersNamespaceAreScraped() {
        exporterLike("gpu-operator", "nvidia-dcgm-exporter-a", "gpu-1", "10.0.0.11");
        // A tenant's pod wearing the exporter's label, on another node and on the same node as the real exporter.
        exporterLike("tenant-a", "fake-exporter", "gpu-2", "10.1.0.66");
        exporterLike("tenant-a", "aaa-fake-exporter", "gpu-1", "10.1.0.67");
        assertEquals(Map.of("gpu-1", "http://10.0.0.11:9400/metrics"), pulls.targets());
    }
}
