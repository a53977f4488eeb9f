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
 * Node objects as GPU feature discovery, the NVIDIA device plugin, the GPU Operator and HAMi leave them, at one
 * {@link NodeState} of the GPU stack. Feature discovery labels the driver and CUDA versions under both its names
 * ({@code nvidia.com/cuda.driver.major/minor/rev} and {@code nvidia.com/cuda.driver-version.*}), as GFD v0.15 does;
 * the operator labels which of its components run where ({@code nvidia.com/gpu.deploy.*}). A HAMi node runs HAMi's
 * device plugin instead of NVIDIA's. A DRA node runs neither the device plugin nor feature discovery (the operator's
 * driver, toolkit and dcgm-exporter only, and NVIDIA's DRA kubelet plugin): its cards are known only from the
 * ResourceSlices its driver publishes.
 */
final class NodeObjects {

    private static final ObjectMapper JSON = new ObjectMapper();

    private NodeObjects() {
    }

    /** The node labelled as GFD labels a driver of {@code driver} offering CUDA {@code cuda}, e.g. 550.54.15 and 12.4. */
    static Node node(SimNode node, Instant created, NodeState state) {
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
            driverLabels(labels, state);
            labels.put("nvidia.com/gfd.timestamp", Long.toString(state.labelledAt().getEpochSecond()));
        }
        deployLabels(labels, node.pool());
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
                labels.put("nvidia.com/mig.config", state.migConfig());
                labels.put("nvidia.com/mig.config.state", state.migState());
                if (!state.migApplied()) {
                    // MIG mode off: the mixed strategy advertises the whole cards
                    capacity.put("nvidia.com/gpu", new Quantity(Integer.toString(node.gpus().size())));
                    break;
                }
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
                .withAllocatable(allocatable(capacity, state))
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

    /**
     * What the node offers: its capacity, but none of the device plugin's resources while the plugin is down (the
     * kubelet keeps the capacity it last registered and counts none of it healthy).
     */
    private static Map<String, Quantity> allocatable(Map<String, Quantity> capacity, NodeState state) {
        Map<String, Quantity> out = new LinkedHashMap<>(capacity);
        if (!state.plugin()) {
            out.replaceAll((resource, amount) -> resource.startsWith("nvidia.com/") ? new Quantity("0") : amount);
        }
        return out;
    }

    /** GPU feature discovery's driver and CUDA labels, under their old names and the cuda.*-version ones. */
    private static void driverLabels(Map<String, String> labels, NodeState state) {
        String[] driver = state.driver().split("\\.");
        String[] cuda = state.cuda().split("\\.");
        labels.put("nvidia.com/cuda.driver-version.full", state.driver());
        labels.put("nvidia.com/cuda.driver-version.major", driver[0]);
        labels.put("nvidia.com/cuda.driver-version.minor", driver[1]);
        labels.put("nvidia.com/cuda.driver-version.revision", driver[2]);
        labels.put("nvidia.com/cuda.driver.major", driver[0]);
        labels.put("nvidia.com/cuda.driver.minor", driver[1]);
        labels.put("nvidia.com/cuda.driver.rev", driver[2]);
        labels.put("nvidia.com/cuda.runtime-version.full", state.cuda());
        labels.put("nvidia.com/cuda.runtime-version.major", cuda[0]);
        labels.put("nvidia.com/cuda.runtime-version.minor", cuda[1]);
        labels.put("nvidia.com/cuda.runtime.major", cuda[0]);
        labels.put("nvidia.com/cuda.runtime.minor", cuda[1]);
    }

    /**
     * The GPU Operator's {@code nvidia.com/gpu.deploy.*} labels: which of its components the node runs. A HAMi node
     * is set to run HAMi's device plugin instead of NVIDIA's, a DRA node the DRA kubelet plugin (the label its
     * nodeSelector asks for) instead of the device plugin, feature discovery and the MIG manager.
     */
    private static void deployLabels(Map<String, String> labels, GpuPool pool) {
        for (StackComponent c : StackComponent.values()) {
            if (c.operand() != null && (c.runsOn(pool) || c.optedOut(pool))) {
                labels.put("nvidia.com/gpu.deploy." + c.operand(), Boolean.toString(c.runsOn(pool)));
            }
        }
        if (pool == GpuPool.DRA) {
            labels.put(StackComponent.DRA_NODE_LABEL, "true");
        }
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
