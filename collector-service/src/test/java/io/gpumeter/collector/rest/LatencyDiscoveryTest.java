package io.gpumeter.collector.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.gpumeter.collector.service.LatencyPulls;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * vLLM pods found by label are scraped beside the configured ones, under the service their label names and the
 * namespace they run in: slo-service knows a service by both, the name its tenant chose and the namespace the cluster
 * wrote.
 */
@QuarkusTest
@TestProfile(LatencyDiscoveryTest.Discovering.class)
@WithKubernetesTestServer(crud = true)
@WithTestResource(SloStandIn.class)
class LatencyDiscoveryTest {

    public static class Discovering implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.collector.vllm.discover", "true");
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    LatencyPulls pulls;

    private void pod(String name, String phase, Map<String, String> labels) {
        server.getClient().pods().inNamespace("ml").resource(new PodBuilder().withNewMetadata().withName(name)
                .withNamespace("ml").withLabels(labels).endMetadata().withNewStatus().withPhase(phase)
                .withPodIP("127.0.0.1").endStatus().build()).create();
    }

    @Test
    void aLabelledRunningPodIsScrapedUnderItsServiceLabel() {
        // a label naming another namespace changes nothing: the namespace sent is the pod's, which the cluster wrote
        pod("chat-1", "Running", Map.of("gpumeter.io/latency", "vllm", "app.kubernetes.io/name", "chat",
                "namespace", "b-ns"));
        pod("chat-2", "Pending", Map.of("gpumeter.io/latency", "vllm"));
        pod("web-0", "Running", Map.of("app.kubernetes.io/name", "web"));
        SloStandIn.reset();
        SloStandIn.metrics(VllmScrapes.scrape("vllm-scrape-1.prom"));
        assertEquals(new LatencyPulls.Round(2, 2, 0, 2), pulls.scrape(Instant.parse("2026-07-01T10:00:00Z")),
                "the configured ml/chat-0 and the discovered ml/chat-1 (a KV-cache line each); not the pending pod nor"
                        + " the unlabelled one");
        SloStandIn.metrics(VllmScrapes.scrape("vllm-scrape-2.prom"));
        assertEquals(new LatencyPulls.Round(2, 2, 10, 2), pulls.scrape(Instant.parse("2026-07-01T10:00:30Z")));
        List<JsonNode> discovered = SloStandIn.records().stream().flatMap(b -> b.lines()).map(LatencyDiscoveryTest::json)
                .filter(r -> r.path("pod").asText().equals("chat-1")).toList();
        assertEquals(5, discovered.size());
        assertEquals(List.of("chat"), discovered.stream().map(r -> r.path("service").asText()).distinct().toList());
        assertEquals(List.of("ml"), discovered.stream().map(r -> r.path("namespace").asText()).distinct().toList());
    }

    private static JsonNode json(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
