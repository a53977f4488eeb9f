package io.gpumeter.launcher.simulator;

import java.time.Instant;
import java.util.List;

/**
 * One pod of a GPU-stack DaemonSet on one node, for as long as it lives: a rollout or a deleted driver pod makes
 * another.
 *
 * @param generation   the DaemonSet's template generation the pod was made from ({@code pod-template-generation})
 * @param revision     its {@code controller-revision-hash}
 * @param containerIds one containerd id per container, the main one first
 */
record StackPod(StackComponent component, SimNode node, String name, String uid, String image, long generation,
                String revision, Instant createdAt, String podIp, List<String> containerIds) {

    StackPod {
        containerIds = List.copyOf(containerIds);
    }
}
