package io.gpumeter.launcher.simulator;

import java.time.Instant;
import java.util.List;

/**
 * What happened to the GPU stack in a simulated history, for a test to derive its expectations from:
 * <ul>
 *   <li>a driver upgrade on one node: the operator's driver DaemonSet (updateStrategy OnDelete) given the new driver,
 *   the node's driver pod deleted and its successor ready, then feature discovery relabelling the node;</li>
 *   <li>the MIG node cut into its MIG layout by the MIG manager ({@code nvidia.com/mig.config} changed, its state
 *   pending, then success with the MIG devices advertised);</li>
 *   <li>the device plugin of the whole-card node crash-looping, the node's allocatable GPUs at 0 meanwhile, and a job
 *   that waits for them;</li>
 *   <li>a dcgm-exporter image update rolled node by node.</li>
 * </ul>
 *
 * @param pods the GPU stack's pods alive at the end of the history
 */
public record StackPlan(DriverUpgrade upgrade, MigReconfiguration mig, CrashLoop crashLoop, ImageUpdate dcgmExporter,
                        List<LivePod> pods) {

    public StackPlan {
        pods = List.copyOf(pods);
    }

    /** @param at when feature discovery relabelled the node with the new versions */
    public record DriverUpgrade(String node, String driverBefore, String driverAfter, String cudaBefore,
                                String cudaAfter, String imageBefore, String imageAfter, Instant at) {
    }

    /** @param pendingAt when the layout was asked for and the MIG manager reported pending; appliedAt its success */
    public record MigReconfiguration(String node, String configBefore, String configAfter, Instant pendingAt,
                                     Instant appliedAt) {
    }

    /**
     * @param daemonSet          the crash-looping pod's DaemonSet
     * @param from               the container's first failure
     * @param to                 when it runs again and stays up
     * @param allocatableDownAt  when the node's allocatable nvidia.com/gpu fell to 0
     * @param allocatableUpAt    when it was back to the node's cards
     * @param waitingPod         the uid of the job's pod that waited for them ({@link Plan#pod})
     */
    public record CrashLoop(String node, String daemonSet, String pod, Instant from, Instant to,
                            Instant allocatableDownAt, Instant allocatableUpAt, String waitingPod) {
    }

    public record ImageUpdate(String namespace, String daemonSet, String imageBefore, String imageAfter, Instant at) {
    }

    /** A pod of the GPU stack: its DaemonSet, node and image. */
    public record LivePod(String namespace, String name, String daemonSet, String node, String image) {
    }
}
