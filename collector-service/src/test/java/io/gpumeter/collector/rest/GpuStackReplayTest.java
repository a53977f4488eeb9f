package io.gpumeter.collector.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gpumeter.collector.testing.GpuStackObjects;
import io.gpumeter.collector.testing.LedgerStandIn;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The replay intake takes the GPU stack's kinds as it takes every watched kind: a recorded history of nodes,
 * DaemonSets, Deployments and their pods replays into node statuses, stack workloads and stack pods in the governance
 * half of the request's bundle, heartbeats left out; a bad object is skipped with its reason and nothing else is lost.
 */
@QuarkusTest
@WithTestResource(LedgerStandIn.class)
class GpuStackReplayTest {

    @BeforeEach
    void reset() {
        LedgerStandIn.reset();
    }

    static String line(String type, HasMetadata object) {
        return "{\"type\":\"" + type + "\",\"object\":" + Serialization.asJson(object) + "}";
    }

    @Test
    void aRecordedStackReplaysIntoItsFactsAndEachBadObjectIsSkippedWithItsReason() {
        NodeBuilder node = GpuStackObjects.a100();
        Map<String, String> labels = new HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            labels.put("team.example.com/label-" + i, "v");
        }
        labels.put("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3");
        DaemonSet byDigest = GpuStackObjects.dcgmExporter();
        byDigest.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(
                "nvcr.io/nvidia/k8s/dcgm-exporter@sha256:0f3d8b6b3a2b1c4e5f60718293a4b5c6d7e8f90112233445566778899aabbccd");
        String body = String.join("\n",
                line("ADDED", node.build()),
                // a heartbeat: a new version, nothing the node offers changed
                line("MODIFIED", GpuStackObjects.a100().editMetadata().withResourceVersion("101").endMetadata()
                        .editStatus().addNewCondition().withType("Ready").withStatus("True")
                        .withLastHeartbeatTime("2026-05-01T10:00:40Z").endCondition().endStatus().build()),
                line("MODIFIED", GpuStackObjects.a100().editMetadata().withResourceVersion("102").endMetadata()
                        .editStatus().addToAllocatable("nvidia.com/gpu", new Quantity("8")).endStatus().build()),
                line("ADDED", GpuStackObjects.a100().editMetadata().withName("gpu-h100-big").withUid("big")
                        .withLabels(labels).endMetadata().build()),
                line("ADDED", GpuStackObjects.a100().editMetadata().withName("gpu-half").withUid("half").endMetadata()
                        .editStatus().addToAllocatable("nvidia.com/gpu", new Quantity("500m")).endStatus().build()),
                line("MODIFIED", byDigest),
                line("ADDED", new DaemonSetBuilder(GpuStackObjects.dcgmExporter()).editMetadata().withNamespace("team-a")
                        .withUid("impostor").endMetadata().build()),
                line("ADDED", new DeploymentBuilder().withNewMetadata().withNamespace("gpu-operator").withName("gpu-operator")
                        .withUid("op").withResourceVersion("5").endMetadata().withNewSpec().withNewTemplate().withNewSpec()
                        .addNewContainer().withName("gpu-operator").withImage("nvcr.io/nvidia/gpu-operator:main-latest")
                        .endContainer().endSpec().endTemplate().endSpec().build()),
                line("MODIFIED", GpuStackObjects.devicePluginPod("gpu-operator").build()),
                line("MODIFIED", GpuStackObjects.devicePluginPod("team-a").build()),
                line("ADDED", new PodBuilder().withNewMetadata().withNamespace("ml").withName("train").withUid("train")
                        .withResourceVersion("3").endMetadata().withNewSpec().withNodeName("gpu-a100-1").addNewContainer()
                        .withName("t").withImage("pytorch:2.4").withNewResources().addToLimits("nvidia.com/gpu", new Quantity("1"))
                        .endResources().endContainer().endSpec().build())) + "\n";

        given().contentType("application/x-ndjson").queryParam("cluster", "east-1")
                .body(body.getBytes(StandardCharsets.UTF_8)).post("/api/v1/ingest/kubernetes").then()
                .statusCode(200)
                .body("events", equalTo(11))
                .body("skipped", equalTo(3))
                .body("skippedReasons.'DaemonSet not a configured component of the GPU stack'", equalTo(1))
                .body("skippedReasons.'no GPU requested'", equalTo(1))
                .body("skippedReasons.'node status: a GPU resource in status.allocatable is not a whole, non-negative count'",
                        equalTo(1));

        assertEquals(1, LedgerStandIn.governance().size(), "one bundle");
        JsonNode governance = LedgerStandIn.governance().get(0);
        assertEquals("east-1", governance.path("cluster").asText());
        assertEquals(List.of("gpu-a100-1/100/0", "gpu-a100-1/102/8", "gpu-h100-big/100/0"),
                governance.path("nodeStatuses").valueStream().map(n -> n.path("name").asText() + "/"
                        + n.path("resourceVersion").asText() + "/" + n.path("allocatable").path("nvidia.com/gpu").asText()).toList(),
                "the heartbeat and the half GPU are not among them");
        assertEquals(Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"),
                Serialization.unmarshal(governance.path("nodeStatuses").get(2).path("gpuLabels").toString(), Map.class));
        assertEquals(List.of(
                        "dcgm-exporter nvcr.io/nvidia/k8s/dcgm-exporter@sha256:0f3d8b6b3a2b1c4e5f60718293a4b5c6d7e8f90112233445566778899aabbccd",
                        "gpu-operator nvcr.io/nvidia/gpu-operator:main-latest"),
                governance.path("stackWorkloads").valueStream().map(w -> w.path("component").asText() + " "
                        + w.path("images").get(0).asText()).toList(), "a digest and a tag that is no version, kept as written");
        JsonNode pod = governance.path("stackPods").get(0);
        assertEquals(1, governance.path("stackPods").size(), "the tenant's namesake is no stack pod");
        assertEquals(List.of("device-plugin", "gpu-a100-1", "false", "7", "CrashLoopBackOff"), List.of(
                pod.path("component").asText(), pod.path("node").asText(), pod.path("ready").asText(),
                pod.path("restarts").asText(), pod.path("waitingReason").asText()));

        JsonNode metering = LedgerStandIn.metering().get(0);
        assertEquals(5, metering.path("nodes").size(), "every node version keeps its metering fact, the bad ones too");
        assertEquals(List.of("train"), LedgerStandIn.pods().stream().map(p -> p.path("name").asText()).toList());
    }
}
