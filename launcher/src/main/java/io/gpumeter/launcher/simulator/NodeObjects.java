package io.gpumeter.launcher.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;

import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Node objects as GPU feature discovery, the NVIDIA device plugin and HAMi leave them. A DRA node runs neither the
 * device plugin nor feature discovery: its cards are known only from the ResourceSlices its driver publishes.
 */
final class NodeObjects {

    private static final ObjectMapper JSON = new ObjectMapper();

    private NodeObjects() {
    }

    static Node node(SimNode node, Instant created) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/arch", "amd64");
        labels.put("kubernetes.io/hostname", node.name());
        labels.put("kubernetes.io/os", "linux");
        labels.put("node.kubernetes.io/instance-type", node.pool() == GpuPool.HAMI ? "p5.48xlarge" : "p4de.24xlarge");
        labels.put("nvidia.com/gpu.present", "true");
        if (node.pool() != GpuPool.DRA) {
            labels.put("nvidia.com/gpu.product", node.model());
            labels.put("nvidia.com/gpu.memory", Long.toString(node.gpus().get(0).memoryMib()));
            labels.put("nvidia.com/gpu.count", Integer.toString(node.gpus().size()));
            labels.put("nvidia.com/gpu.family", node.pool() == GpuPool.HAMI ? "hopper" : "ampere");
        }
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("node.alpha.kubernetes.io/ttl", "0");
        Map<String, Quantity> capacity = new LinkedHashMap<>();
        capacity.put("cpu", new Quantity("96"));
        capacity.put("memory", new Quantity("1056457116Ki"));
        capacity.put("pods", new Quantity("110"));
        switch (node.pool()) {
            case HAMI -> {
                labels.put("gpu", "on");
                annotations.put("hami.io/node-nvidia-register", hamiRegister(node));
                capacity.put("nvidia.com/gpu", new Quantity(Integer.toString(node.gpus().size() * Fleet.HAMI_SPLIT_COUNT)));
            }
            case WHOLE_CARD -> {
                labels.put("nvidia.com/gpu.replicas", "1");
                labels.put("nvidia.com/gpu.sharing-strategy", "none");
                labels.put("nvidia.com/mig.capable", "true");
                capacity.put("nvidia.com/gpu", new Quantity(Integer.toString(node.gpus().size())));
            }
            case MIG -> {
                labels.put("nvidia.com/mig.capable", "true");
                labels.put("nvidia.com/mig.strategy", "mixed");
                labels.put("nvidia.com/mig.config", "all-balanced");
                labels.put("nvidia.com/mig.config.state", "success");
                for (MigProfile profile : MigProfile.values()) {
                    String prefix = "nvidia.com/mig-" + profile.profile();
                    int count = profile.perGpu() * node.gpus().size();
                    labels.put(prefix + ".count", Integer.toString(count));
                    labels.put(prefix + ".memory", Long.toString(profile.memoryMib()));
                    labels.put(prefix + ".multiprocessors", Integer.toString(profile.multiprocessors()));
                    labels.put(prefix + ".slices.gi", Integer.toString(profile.slices()));
                    labels.put(prefix + ".slices.ci", Integer.toString(profile.slices()));
                    labels.put(prefix + ".engines.copy", Integer.toString(profile.slices()));
                    capacity.put(profile.resourceName(), new Quantity(Integer.toString(count)));
                }
                capacity.put("nvidia.com/gpu", new Quantity("0"));
            }
            case DRA -> { }
        }
        String at = Rfc3339.format(created);
        return new NodeBuilder()
                .withNewMetadata()
                .withName(node.name())
                .withUid(node.uid())
                .withCreationTimestamp(at)
                .withLabels(labels)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withPodCIDR(podCidr(node))
                .endSpec()
                .withNewStatus()
                .withCapacity(capacity)
                .withAllocatable(new LinkedHashMap<>(capacity))
                .addNewAddress().withType("InternalIP").withAddress(node.hostIp()).endAddress()
                .addNewAddress().withType("Hostname").withAddress(node.name()).endAddress()
                .addNewCondition()
                .withType("Ready").withStatus("True").withReason("KubeletReady")
                .withMessage("kubelet is posting ready status")
                .withLastHeartbeatTime(at).withLastTransitionTime(at)
                .endCondition()
                .withNewNodeInfo()
                .withArchitecture("amd64").withOperatingSystem("linux").withOsImage("Ubuntu 22.04.5 LTS")
                .withKernelVersion("5.15.0-125-generic").withContainerRuntimeVersion("containerd://1.7.22")
                .withKubeletVersion("v1.31.4").withKubeProxyVersion("v1.31.4")
                .withMachineID(node.uid().replace("-", "")).withSystemUUID(node.uid()).withBootID(node.uid())
                .endNodeInfo()
                .endStatus()
                .build();
    }

    static String podCidr(SimNode node) {
        String[] octets = node.hostIp().split("\\.");
        return "10.244." + octets[3] + ".0/24";
    }

    /** HAMi's node registration: a JSON array, one entry per card. */
    static String hamiRegister(SimNode node) {
        List<Map<String, Object>> devices = new ArrayList<>();
        for (SimGpu gpu : node.gpus()) {
            Map<String, Object> device = new LinkedHashMap<>();
            device.put("id", gpu.uuid());
            device.put("index", gpu.index());
            device.put("count", Fleet.HAMI_SPLIT_COUNT);
            device.put("devmem", gpu.memoryMib());
            device.put("devcore", 100);
            device.put("type", gpu.model());
            device.put("numa", gpu.index() < Fleet.GPUS_PER_NODE / 2 ? 0 : 1);
            device.put("mode", "hami-core");
            device.put("health", true);
            devices.add(device);
        }
        try {
            return JSON.writeValueAsString(devices);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
