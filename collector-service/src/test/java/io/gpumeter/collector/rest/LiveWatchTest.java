package io.gpumeter.collector.rest;

import io.gpumeter.collector.testing.LedgerStandIn;
import io.gpumeter.common.testing.Management;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The live path against the fabric8 mock API server in CRUD mode: objects written there reach the ledger. */
@QuarkusTest
@TestProfile(LiveWatchTest.Watching.class)
@WithKubernetesTestServer(crud = true)
@WithTestResource(LedgerStandIn.class)
class LiveWatchTest {

    /** Turns the watch on, with a fast flush. */
    public static class Watching implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.collector.watch.enabled", "true", "gpumeter.collector.delivery.flush-interval", "200ms",
                    "gpumeter.collector.cluster", "live-1");
        }
    }

    @KubernetesTestServer
    KubernetesServer server;

    @Test
    void namespacesNodesAndGpuPodsFlowToTheLedger() throws InterruptedException {
        await("the watch to start").atMost(Duration.ofSeconds(30))
                .until(() -> "watching".equals(Management.given().get("/q/health/ready").jsonPath()
                .getString("checks.find { it.name == 'kubernetes-watch' }.data.state")));
        KubernetesClient client = server.getClient();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("ml")
                .addToLabels("gpumeter.io/tenant", "acme").endMetadata().build()).create();
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("gpu-1")
                .addToLabels("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3").endMetadata().build()).create();
        Pod gpuPod = new PodBuilder().withNewMetadata().withName("train").withNamespace("ml").withUid("uid-train").endMetadata()
                .withNewSpec().withNodeName("gpu-1").addNewContainer().withName("a").withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1")).endResources().endContainer().endSpec()
                .withNewStatus().addNewCondition().withType("PodScheduled").withStatus("True")
                .withLastTransitionTime("2026-05-01T10:00:00Z").endCondition().endStatus().build();
        client.pods().inNamespace("ml").resource(gpuPod).create();
        client.pods().inNamespace("ml").resource(new PodBuilder().withNewMetadata().withName("web").withNamespace("ml")
                .endMetadata().withNewSpec().addNewContainer().withName("nginx").endContainer().endSpec().build()).create();
        client.pods().inNamespace("ml").withName("train").delete();

        await("the deletion to arrive").atMost(Duration.ofSeconds(30))
                .until(() -> LedgerStandIn.pods().stream().anyMatch(p -> "DELETED".equals(p.path("type").asText())));
        List<String> types = LedgerStandIn.pods().stream().map(p -> p.path("type").asText()).toList();
        assertEquals("ADDED", types.get(0));
        assertTrue(LedgerStandIn.pods().stream().allMatch(p -> "train".equals(p.path("name").asText())), "only GPU pods are sent");
        assertTrue(LedgerStandIn.metering().stream().allMatch(b -> "live-1".equals(b.path("cluster").asText())));
        assertTrue(LedgerStandIn.metering().stream().flatMap(b -> b.path("namespaces").valueStream())
                .anyMatch(n -> "acme".equals(n.path("labels").path("gpumeter.io/tenant").asText())));
        assertTrue(LedgerStandIn.metering().stream().flatMap(b -> b.path("nodes").valueStream())
                .anyMatch(n -> "gpu-1".equals(n.path("name").asText())));
        Management.given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        // Once listed, the ledger heard which pods exist, so deletions missed while down can be closed.
        await("the live pod set").atMost(Duration.ofSeconds(30)).until(() -> !LedgerStandIn.livePods().isEmpty());
        assertEquals("live-1", LedgerStandIn.livePods().get(0).path("cluster").asText());
        assertTrue(LedgerStandIn.livePods().get(0).path("uids").isArray());
        assertTrue(!LedgerStandIn.livePods().get(0).path("resourceVersion").asText().isEmpty());
    }
}
