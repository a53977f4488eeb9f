package io.gpumeter.collector.governance;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpumeter.collector.testing.GpuStackObjects;
import io.gpumeter.collector.testing.LedgerStandIn;
import io.gpumeter.common.testing.Management;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The live path for the GPU stack against the CRUD mock API server: what a node offers, the operator's DaemonSets in
 * its namespace and their pods reach the governance intake, never the metering one; a node's heartbeat sends nothing,
 * its allocatable dropping to 0 does.
 */
@QuarkusTest
@TestProfile(GpuStackWatchTest.Watching.class)
@WithKubernetesTestServer(crud = true)
@WithTestResource(LedgerStandIn.class)
class GpuStackWatchTest {

    /** Turns the watch on, with a fast flush. */
    public static class Watching implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.collector.watch.enabled", "true", "gpumeter.collector.delivery.flush-interval", "200ms",
                    "gpumeter.collector.cluster", "live-stack");
        }
    }

    @KubernetesTestServer
    KubernetesServer server;

    @Test
    void theStacksStateFlowsToTheGovernanceIntakeAndHeartbeatsDoNot() throws InterruptedException {
        await("the watch to start").atMost(Duration.ofSeconds(30))
                .until(() -> "watching".equals(Management.given().get("/q/health/ready").jsonPath()
                .getString("checks.find { it.name == 'kubernetes-watch' }.data.state")));
        KubernetesClient client = server.getClient();
        Node node = GpuStackObjects.a100().editMetadata().withResourceVersion(null).endMetadata()
                .editStatus().addToAllocatable("nvidia.com/gpu", new Quantity("8")).endStatus().build();
        client.nodes().resource(node).create();
        client.apps().daemonSets().inNamespace("gpu-operator").resource(GpuStackObjects.dcgmExporter()).create();
        client.pods().inNamespace("gpu-operator").resource(GpuStackObjects.devicePluginPod("gpu-operator")
                .editMetadata().withResourceVersion(null).endMetadata().build()).create();
        await("the node, the DaemonSet and its pod").atMost(Duration.ofSeconds(30))
                .until(() -> !LedgerStandIn.governance("nodeStatuses").isEmpty()
                && !LedgerStandIn.governance("stackWorkloads").isEmpty()
                && !LedgerStandIn.governance("stackPods").isEmpty());

        // heartbeats: the kubelet's condition times move, nothing the node offers does
        for (int beat = 1; beat <= 3; beat++) {
            NodeCondition ready = new NodeConditionBuilder().withType("Ready").withStatus("True")
                    .withLastHeartbeatTime("2026-05-01T10:00:0" + beat + "Z").build();
            client.nodes().withName("gpu-a100-1").edit(n -> {
                n.getStatus().setConditions(List.of(ready));
                return n;
            });
        }
        client.nodes().withName("gpu-a100-1").edit(n -> {
            n.getStatus().getAllocatable().put("nvidia.com/gpu", new Quantity("0"));
            return n;
        });
        await("the drop of allocatable").atMost(Duration.ofSeconds(30))
                .until(() -> LedgerStandIn.governance("nodeStatuses").size() >= 2);
        // a flush or two more: a heartbeat sent late would show meanwhile
        await("no third node version").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                .until(() -> LedgerStandIn.governance("nodeStatuses").size() == 2);

        List<JsonNode> statuses = LedgerStandIn.governance("nodeStatuses");
        assertEquals(List.of("8", "0"), statuses.stream().map(s -> s.path("allocatable").path("nvidia.com/gpu").asText()).toList(),
                "the first version and the drop, no heartbeat");
        assertTrue(statuses.get(0).path("unschedulable").asBoolean());
        assertEquals("dcgm-exporter", LedgerStandIn.governance("stackWorkloads").get(0).path("component").asText());
        assertEquals("CrashLoopBackOff", LedgerStandIn.governance("stackPods").get(0).path("waitingReason").asText());
        assertTrue(LedgerStandIn.governance().stream().allMatch(b -> "live-stack".equals(b.path("cluster").asText())));
        assertTrue(LedgerStandIn.metering().stream().noneMatch(b -> b.has("nodeStatuses") && b.path("nodeStatuses").size() > 0),
                "never in the metering batch");
        assertTrue(LedgerStandIn.metering().stream().flatMap(b -> b.path("pods").valueStream()).findAny().isEmpty(),
                "the device plugin's pod is no metered pod");
    }
}
