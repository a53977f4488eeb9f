package io.gpumeter.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpumeter.launcher.simulator.Rfc3339;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The watched cluster of the freshness benchmark, written into the simulated API server as the demo's simulator
 * writes it: HAMi nodes registering eight H100 cards each, and pods created already bound to one card, Running, with
 * their PodScheduled condition True since the moment they are written. Q1 is asked by card, so each pod has a card of
 * its own: the read that shows it names no other pod.
 */
final class LiveCluster {

    static final String NAMESPACE = "fresh";
    private static final int CARDS_PER_NODE = 8;
    private static final String MODEL = "NVIDIA-H100-80GB-HBM3";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A card and the node it is on. */
    record Card(String uuid, String node) {
    }

    private final KubernetesClient client;
    private final List<Card> cards = new ArrayList<>();

    LiveCluster(KubernetesClient client) {
        this.client = client;
    }

    /** The tenant's namespace and enough nodes for {@code count} cards, numbered from 0. */
    void seed(int count) {
        client.resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
                .withLabels(Map.of("gpumeter.io/tenant", "fresh-tenant")).endMetadata().build()).create();
        String created = Rfc3339.format(Instant.now());
        for (int n = 0; cards.size() < count; n++) {
            String node = "live-node-" + n;
            ArrayNode devices = JSON.createArrayNode();
            for (int g = 0; g < CARDS_PER_NODE; g++) {
                String uuid = "GPU-" + UUID.nameUUIDFromBytes((node + "/" + g).getBytes());
                cards.add(new Card(uuid, node));
                devices.addObject().put("id", uuid).put("index", g).put("count", 10).put("devmem", 81920)
                        .put("devcore", 100).put("type", MODEL).put("numa", g < 4 ? 0 : 1).put("mode", "hami-core")
                        .put("health", true);
            }
            Map<String, Quantity> capacity = Map.of("cpu", new Quantity("96"), "memory", new Quantity("1056457116Ki"),
                    "pods", new Quantity("110"), "nvidia.com/gpu", new Quantity(Integer.toString(CARDS_PER_NODE * 10)));
            client.resource(new NodeBuilder().withNewMetadata().withName(node).withUid(UUID.randomUUID().toString())
                    .withCreationTimestamp(created)
                    .withLabels(Map.of("kubernetes.io/hostname", node, "gpu", "on", "nvidia.com/gpu.present", "true",
                            "nvidia.com/gpu.product", MODEL, "nvidia.com/gpu.memory", "81920",
                            "nvidia.com/gpu.count", Integer.toString(CARDS_PER_NODE)))
                    .withAnnotations(Map.of("hami.io/node-nvidia-register", devices.toString()))
                    .endMetadata()
                    .withNewStatus().withCapacity(capacity).withAllocatable(capacity)
                    .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady")
                    .withLastHeartbeatTime(created).withLastTransitionTime(created).endCondition()
                    .endStatus().build()).create();
        }
    }

    Card card(int index) {
        return cards.get(index);
    }

    /**
     * Writes pod {@code name} on card {@code index}: bound, Running, scheduled {@code at} (the API server keeps whole
     * seconds), with HAMi's binding of a quarter of the card, as HAMi's scheduler and device plugin leave it.
     */
    void createPod(String name, int index, Instant at) {
        Card card = cards.get(index);
        String time = Rfc3339.format(at);
        Map<String, Quantity> resources = Map.of("cpu", new Quantity("4"), "memory", new Quantity("32Gi"),
                "nvidia.com/gpu", new Quantity("1"), "nvidia.com/gpumem", new Quantity("20480"),
                "nvidia.com/gpucores", new Quantity("25"));
        Pod pod = new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(NAMESPACE).withUid(UUID.randomUUID().toString())
                .withCreationTimestamp(time).withLabels(Map.of("app", "fresh", "gpumeter.io/project", "freshness"))
                .withAnnotations(Map.of("hami.io/bind-phase", "success",
                        "hami.io/bind-time", Long.toString(at.getEpochSecond()),
                        "hami.io/vgpu-devices-allocated", card.uuid() + ",NVIDIA,20480,25:;",
                        "hami.io/vgpu-devices-to-allocate", ";",
                        "hami.io/vgpu-node", card.node(),
                        "hami.io/vgpu-time", Long.toString(at.getEpochSecond())))
                .endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nvcr.io/nvidia/pytorch:24.05-py3")
                .withNewResources().withLimits(resources).withRequests(resources).endResources().endContainer()
                .withSchedulerName("hami-scheduler").withRestartPolicy("Never").withNodeName(card.node())
                .endSpec()
                .withNewStatus().withPhase("Running").withQosClass("Burstable").withStartTime(time)
                .addNewCondition().withType("PodScheduled").withStatus("True").withLastTransitionTime(time).endCondition()
                .addNewCondition().withType("Initialized").withStatus("True").withLastTransitionTime(time).endCondition()
                .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime(time).endCondition()
                .addNewContainerStatus().withName("main").withImage("nvcr.io/nvidia/pytorch:24.05-py3")
                .withReady(true).withStarted(true).withRestartCount(0)
                .withNewState().withNewRunning().withStartedAt(time).endRunning().endState().endContainerStatus()
                .endStatus().build();
        client.resource(pod).create();
    }
}
