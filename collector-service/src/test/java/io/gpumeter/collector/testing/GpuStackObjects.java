package io.gpumeter.collector.testing;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The GPU stack's objects as a cluster with NVIDIA's GPU Operator holds them, for the tests of their facts. */
public final class GpuStackObjects {

    /** The chart's default dcgm-exporter image (deployments/gpu-operator/values.yaml, see gpu-stack/PROVENANCE.md). */
    public static final String DCGM_IMAGE = "nvcr.io/nvidia/k8s/dcgm-exporter:4.6.0-4.8.3-distroless";
    public static final String DEVICE_PLUGIN_IMAGE = "nvcr.io/nvidia/k8s-device-plugin:v0.18.0";

    private GpuStackObjects() {
    }

    /** The GPU Operator's dcgm-exporter DaemonSet (the upstream asset), rendered in its namespace with the chart's image. */
    public static DaemonSet dcgmExporter() {
        try (InputStream in = GpuStackObjects.class.getResourceAsStream("/gpu-stack/gpu-operator-state-dcgm-exporter-daemonset.yaml")) {
            DaemonSet ds = Serialization.unmarshal(in, DaemonSet.class);
            ds.getMetadata().setNamespace("gpu-operator");
            ds.getMetadata().setUid("ds-uid-dcgm");
            ds.getMetadata().setResourceVersion("41");
            ds.getSpec().getTemplate().getSpec().getInitContainers()
                    .forEach(c -> c.setImage("nvcr.io/nvidia/gpu-operator:v25.10.0"));
            ds.getSpec().getTemplate().getSpec().getContainers().forEach(c -> c.setImage(DCGM_IMAGE));
            return ds;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A pod of the operator's device plugin DaemonSet in {@code namespace}, crash-looping on node gpu-a100-1. */
    public static PodBuilder devicePluginPod(String namespace) {
        return new PodBuilder().withNewMetadata().withNamespace(namespace).withName("nvidia-device-plugin-daemonset-x7k2p")
                .withUid("pod-uid-1").withResourceVersion("900").addNewOwnerReference().withApiVersion("apps/v1")
                .withKind("DaemonSet").withName("nvidia-device-plugin-daemonset").withUid("ds-uid").withController(true)
                .endOwnerReference().endMetadata()
                .withNewSpec().withNodeName("gpu-a100-1")
                .addNewInitContainer().withName("toolkit-validation").withImage("nvcr.io/nvidia/gpu-operator:v25.10.0")
                .endInitContainer()
                .addNewContainer().withName("nvidia-device-plugin").withImage(DEVICE_PLUGIN_IMAGE).endContainer()
                .addNewContainer().withName("config-manager").withImage(DEVICE_PLUGIN_IMAGE).endContainer()
                .endSpec()
                .withNewStatus().withPhase("Running")
                .addNewCondition().withType("Ready").withStatus("False").endCondition()
                .addNewInitContainerStatus().withName("toolkit-validation").withRestartCount(0).withNewState()
                .withNewTerminated().withExitCode(0).withReason("Completed").endTerminated().endState()
                .endInitContainerStatus()
                .addNewContainerStatus().withName("nvidia-device-plugin").withRestartCount(7).withNewState().withNewWaiting()
                .withReason("CrashLoopBackOff").withMessage("back-off 5m0s").endWaiting().endState().endContainerStatus()
                .addNewContainerStatus().withName("config-manager").withRestartCount(1).withNewState().withNewRunning()
                .withStartedAt("2026-05-01T09:00:00Z").endRunning().endState().endContainerStatus()
                .endStatus();
    }

    /**
     * An A100 node as the GPU Operator leaves it: feature discovery's labels, the device plugin's resources (its
     * allocatable at 0: the plugin is down), cordoned by a runbook action.
     */
    public static NodeBuilder a100() {
        return new NodeBuilder().withNewMetadata().withName("gpu-a100-1").withUid("node-uid-1").withResourceVersion("100")
                .withCreationTimestamp("2026-04-01T00:00:00Z")
                .addToLabels("kubernetes.io/hostname", "gpu-a100-1")
                .addToLabels("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB")
                .addToLabels("nvidia.com/gpu.count", "8")
                .addToLabels("nvidia.com/cuda.driver.major", "550")
                .addToLabels("nvidia.com/cuda.driver.minor", "54")
                .addToLabels("nvidia.com/cuda.driver.rev", "15")
                .addToLabels("nvidia.com/mig.config", "all-disabled")
                .addToLabels("nvidia.com/mig.config.state", "success")
                .addToLabels("nvidia.com/gfd.timestamp", "1777629600")
                .addToAnnotations("gpumeter.io/cordoned-by", "runbook cordon xid-79")
                .addToAnnotations("node.alpha.kubernetes.io/ttl", "0")
                .endMetadata()
                .withNewSpec().withUnschedulable(true).addNewTaint().withKey("nvidia.com/gpu").withValue("present")
                .withEffect("NoSchedule").endTaint().endSpec()
                .withNewStatus()
                .addToCapacity("cpu", new Quantity("128")).addToCapacity("memory", new Quantity("1Ti"))
                .addToCapacity("nvidia.com/gpu", new Quantity("8")).addToCapacity("amd.com/gpu", new Quantity("2"))
                .addToAllocatable("cpu", new Quantity("127")).addToAllocatable("nvidia.com/gpu", new Quantity("0"))
                .addToAllocatable("amd.com/gpu", new Quantity("2"))
                .endStatus();
    }
}
