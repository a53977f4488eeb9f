package io.gpumeter.launcher.simulator;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The GPU stack's DaemonSets as the simulated fleet runs them, named, labelled and imaged as their charts render
 * them: the GPU Operator's operands (NVIDIA/gpu-operator v24.3.0, {@code assets/state-*}/{@code *_daemonset.yaml} for
 * names, containers and nodeSelectors, {@code deployments/gpu-operator/values.yaml} for the images; the operator
 * fills in its own namespace, {@code gpu-operator} under Helm's {@code -n gpu-operator}), HAMi's device plugin
 * (Project-HAMi/HAMi {@code charts/hami/templates/device-plugin/daemonsetnvidia.yaml}, release {@code hami} in
 * kube-system) and the kubelet plugin of NVIDIA's DRA driver
 * (NVIDIA/k8s-dra-driver-gpu {@code deployments/helm/nvidia-dra-driver-gpu/templates/kubeletplugin.yaml}).
 * Every container of one component runs the component's image.
 */
enum StackComponent {
    DRIVER("gpu-operator", "nvidia-driver-daemonset", "driver", "nvidia-driver",
            "nvcr.io/nvidia/driver:550.54.15-ubuntu22.04", List.of("nvidia-driver-ctr"),
            EnumSet.of(GpuPool.HAMI, GpuPool.WHOLE_CARD, GpuPool.MIG, GpuPool.DRA), Set.of(), true),
    CONTAINER_TOOLKIT("gpu-operator", "nvidia-container-toolkit-daemonset", "container-toolkit", "nvidia-container-toolkit",
            "nvcr.io/nvidia/k8s/container-toolkit:v1.15.0-ubuntu20.04", List.of("nvidia-container-toolkit-ctr"),
            EnumSet.of(GpuPool.HAMI, GpuPool.WHOLE_CARD, GpuPool.MIG, GpuPool.DRA), Set.of(), false),
    DEVICE_PLUGIN("gpu-operator", "nvidia-device-plugin-daemonset", "device-plugin", "nvidia-device-plugin",
            "nvcr.io/nvidia/k8s-device-plugin:v0.15.0-ubi8", List.of("nvidia-device-plugin", "config-manager"),
            EnumSet.of(GpuPool.WHOLE_CARD, GpuPool.MIG), Set.of(GpuPool.HAMI, GpuPool.DRA), false),
    DCGM_EXPORTER("gpu-operator", "nvidia-dcgm-exporter", "dcgm-exporter", "nvidia-dcgm-exporter",
            "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04", List.of("nvidia-dcgm-exporter"),
            EnumSet.of(GpuPool.HAMI, GpuPool.WHOLE_CARD, GpuPool.MIG, GpuPool.DRA), Set.of(), false),
    MIG_MANAGER("gpu-operator", "nvidia-mig-manager", "mig-manager", "nvidia-mig-manager",
            "nvcr.io/nvidia/cloud-native/k8s-mig-manager:v0.7.0-ubuntu20.04", List.of("nvidia-mig-manager"),
            EnumSet.of(GpuPool.WHOLE_CARD, GpuPool.MIG), Set.of(), false),
    GPU_FEATURE_DISCOVERY("gpu-operator", "gpu-feature-discovery", "gpu-feature-discovery", "nvidia-gpu-feature-discovery",
            "nvcr.io/nvidia/k8s-device-plugin:v0.15.0-ubi8", List.of("gpu-feature-discovery", "config-manager"),
            EnumSet.of(GpuPool.HAMI, GpuPool.WHOLE_CARD, GpuPool.MIG), Set.of(GpuPool.DRA), false),
    HAMI_DEVICE_PLUGIN("kube-system", "hami-device-plugin", null, "hami-device-plugin",
            "projecthami/hami:v2.4.1", List.of("device-plugin", "vgpu-monitor"),
            EnumSet.of(GpuPool.HAMI), Set.of(), false),
    DRA_KUBELET_PLUGIN("nvidia-dra-driver-gpu", "nvidia-dra-driver-gpu-kubelet-plugin", null,
            "nvidia-dra-driver-gpu-service-account-kubeletplugin",
            "nvcr.io/nvidia/k8s-dra-driver-gpu:v25.8.0", List.of("compute-domains", "gpus"),
            EnumSet.of(GpuPool.DRA), Set.of(), false);

    /** The node label the DRA driver's docs have nodes carry, and its kubelet plugin's nodeSelector asks for. */
    static final String DRA_NODE_LABEL = "nvidia.com/dra-kubelet-plugin";

    /** The driver the operator rolls out two days before the end, and the dcgm-exporter image it updates to. */
    static final String NEXT_DRIVER_IMAGE = "nvcr.io/nvidia/driver:560.35.03-ubuntu22.04";
    static final String NEXT_DCGM_EXPORTER_IMAGE = "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.7-3.5.0-ubuntu22.04";

    private final String namespace;
    private final String daemonSet;
    private final String operand;
    private final String serviceAccount;
    private final String image;
    private final List<String> containers;
    private final Set<GpuPool> pools;
    private final Set<GpuPool> optedOut;
    private final boolean onDelete;

    StackComponent(String namespace, String daemonSet, String operand, String serviceAccount, String image,
                   List<String> containers, Set<GpuPool> pools, Set<GpuPool> optedOut, boolean onDelete) {
        this.namespace = namespace;
        this.daemonSet = daemonSet;
        this.operand = operand;
        this.serviceAccount = serviceAccount;
        this.image = image;
        this.containers = containers;
        this.pools = pools;
        this.optedOut = optedOut;
        this.onDelete = onDelete;
    }

    String namespace() {
        return namespace;
    }

    String daemonSet() {
        return daemonSet;
    }

    /** The suffix of the operator's {@code nvidia.com/gpu.deploy.<operand>} label; null for other charts' components. */
    String operand() {
        return operand;
    }

    String serviceAccount() {
        return serviceAccount;
    }

    /** The image the history starts with. */
    String image() {
        return image;
    }

    /** The containers' names, the main one first. */
    List<String> containers() {
        return containers;
    }

    boolean runsOn(GpuPool pool) {
        return pools.contains(pool);
    }

    /** Whether the node is labelled not to run it ({@code nvidia.com/gpu.deploy.<operand>=false}). */
    boolean optedOut(GpuPool pool) {
        return optedOut.contains(pool);
    }

    /** The driver is replaced only when its pod is deleted: the operator renders it with updateStrategy OnDelete. */
    boolean onDelete() {
        return onDelete;
    }

    /** The labels that select the DaemonSet's pods, as its chart writes them. */
    Map<String, String> selector() {
        Map<String, String> labels = new LinkedHashMap<>();
        switch (this) {
            case HAMI_DEVICE_PLUGIN -> {
                labels.put("app.kubernetes.io/component", "hami-device-plugin");
                labels.put("app.kubernetes.io/name", "hami");
                labels.put("app.kubernetes.io/instance", "hami");
            }
            case DRA_KUBELET_PLUGIN -> {
                labels.put("app.kubernetes.io/name", "nvidia-dra-driver-gpu");
                labels.put("app.kubernetes.io/instance", "nvidia-dra-driver-gpu");
                labels.put("nvidia-dra-driver-gpu-component", "kubelet-plugin");
            }
            default -> labels.put("app", daemonSet);
        }
        return labels;
    }

    /** The pod template's nodeSelector. */
    Map<String, String> nodeSelector() {
        return switch (this) {
            case HAMI_DEVICE_PLUGIN -> Map.of("gpu", "on");
            case DRA_KUBELET_PLUGIN -> Map.of(DRA_NODE_LABEL, "true");
            default -> Map.of("nvidia.com/gpu.deploy." + operand, "true");
        };
    }
}
