package io.gpumeter.launcher.demo;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpumeter.launcher.simulator.Rfc3339;

import java.time.Instant;

/**
 * The noisy neighbour: a memory-bound benchmark of another tenant, scheduled by HAMi at {@code at} onto the card of
 * the first inference service's pod. Its SM work takes little of the card (it waits on memory); it fills the card's
 * bandwidth and a good part of its memory.
 */
final class DemoNeighbour {

    static final String NAMESPACE = "umbrella-research";
    static final String POD = "stream-bench-0";
    static final String CONTAINER = "bench";
    /** The share of the card its SM work takes, the DRAM activity it drives the card to, and the memory it fills. */
    static final double SM_SHARE = 0.12;
    static final double DRAM = 0.93;
    static final long MEMORY_MIB = 22000;
    static final long GRANT_MIB = 24000;
    private static final String IMAGE = "nvcr.io/nvidia/cuda:12.6.2-runtime-ubuntu22.04";

    private final long seed;
    private final Instant at;
    private final String card;
    private final String node;
    private final String hostIp;

    DemoNeighbour(long seed, Instant at, String card, String node, String hostIp) {
        this.seed = seed;
        this.at = at;
        this.card = card;
        this.node = node;
        this.hostIp = hostIp;
    }

    /** Whether it holds {@code gpuUuid} at {@code instant}. */
    boolean holds(String gpuUuid, Instant instant) {
        return gpuUuid.equals(card) && !instant.isBefore(at);
    }

    /** The HAMi monitor's labels of its vGPU. */
    String hamiLabels() {
        return "deviceuuid=\"" + card + "\",podnamespace=\"" + NAMESPACE + "\",podname=\"" + POD + "\",ctrname=\""
                + CONTAINER + "\",vdeviceid=\"0\"";
    }

    Pod pod() {
        String time = Rfc3339.format(at);
        return new PodBuilder()
                .withNewMetadata().withName(POD).withNamespace(NAMESPACE)
                .withUid("demo-" + seed + "-" + POD).withCreationTimestamp(time)
                .addToLabels("app", "stream-bench")
                .addToAnnotations("hami.io/vgpu-devices-allocated", card + ",NVIDIA," + GRANT_MIB + ",40:;")
                .addToAnnotations("hami.io/vgpu-devices-to-allocate", ";")
                .addToAnnotations("hami.io/vgpu-node", node)
                .addToAnnotations("hami.io/bind-phase", "success")
                .addToAnnotations("hami.io/bind-time", String.valueOf(at.getEpochSecond()))
                .addNewManagedField().withManager("kubelet").withOperation("Update").withApiVersion("v1")
                .withTime(time).endManagedField()
                .endMetadata()
                .withNewSpec().withSchedulerName("hami-scheduler").withNodeName(node).withRestartPolicy("Never")
                .addNewContainer().withName(CONTAINER).withImage(IMAGE)
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                .addToLimits("nvidia.com/gpumem", new Quantity(Long.toString(GRANT_MIB)))
                .addToLimits("nvidia.com/gpucores", new Quantity("40"))
                .endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Running").withHostIP(hostIp).withStartTime(time)
                .addNewCondition().withType("PodScheduled").withStatus("True").withLastTransitionTime(time).endCondition()
                .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime(time).endCondition()
                .addNewContainerStatus().withName(CONTAINER).withReady(true).withRestartCount(0).withImage(IMAGE)
                .withNewState().withNewRunning().withStartedAt(time).endRunning().endState().endContainerStatus()
                .endStatus().build();
    }

    /** Its pod as a watch event, for the replay endpoint when the collector watches nothing. */
    String ndjson() {
        Pod pod = pod();
        pod.getMetadata().setResourceVersion("1");
        return WatchEvents.line("ADDED", pod) + "\n";
    }
}
