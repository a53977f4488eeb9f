package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;

/**
 * One observed version of a GPU-stack component's pod on a node: whether the component serves that node. These pods
 * request no GPU, so they have a fact of their own. Natural key: cluster, namespace, name, resourceVersion, type.
 *
 * @param component     the configured component its owner is
 * @param node          {@code spec.nodeName}, null while unscheduled
 * @param images        its containers' images, in order
 * @param ready         the pod's Ready condition is True
 * @param restarts      the highest restart count among its containers
 * @param waitingReason the first container's waiting reason (CrashLoopBackOff, ImagePullBackOff…), null when none
 */
public record StackPodFact(String namespace, String name, String uid, String resourceVersion, WatchEventType type,
                           Instant observedAt, String component, String node, List<String> images, String phase,
                           boolean ready, int restarts, String waitingReason) {

    public StackPodFact {
        images = images == null ? List.of() : List.copyOf(images);
    }
}
