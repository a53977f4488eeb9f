package io.gpumeter.ledger.triage.domain;

import java.time.Instant;
import java.util.List;

/**
 * What a node's GPU stack offered at an instant, as far as a triage needs it: the driver and CUDA it carried, the
 * GPUs it offered, its device plugins' pods and its MIG state.
 *
 * @param gpuCapacity    {@code nvidia.com/gpu} capacity; null where no status version is stored
 * @param gpuAllocatable {@code nvidia.com/gpu} allocatable; null where no status version is stored
 * @param migVerdict     AGREE, DISAGREE or UNJUDGED; null without a MIG layout
 */
public record NodeStack(String node, Instant at, boolean present, String driverVersion, String cudaVersion,
                        Long gpuCapacity, Long gpuAllocatable, Boolean cordoned, List<ComponentPod> devicePlugins,
                        String migConfig, String migState, String migVerdict, String migReason) {

    public NodeStack {
        devicePlugins = devicePlugins == null ? List.of() : List.copyOf(devicePlugins);
    }

    /** A GPU-stack component's pod on the node: Ready, Restarting, CrashLoopBackOff, NotReady or Absent. */
    public record ComponentPod(String component, String state, String namespace, String name, Integer restarts,
                               String waitingReason) {

        public boolean ready() {
            return "Ready".equals(state);
        }
    }

    /** The device plugins whose pod on the node is not ready (an absent one included). */
    public List<ComponentPod> unreadyPlugins() {
        return devicePlugins.stream().filter(p -> !p.ready()).toList();
    }

    /** The node's capacity says it has GPUs and its allocatable offers none: the plugin does not report them. */
    public boolean offersNoGpu() {
        return gpuCapacity != null && gpuCapacity > 0 && gpuAllocatable != null && gpuAllocatable == 0;
    }
}
