package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The governance view of one observed version of a GPU pod: when it was created and scheduled, by which scheduler,
 * in which gang, and how its containers fare. Natural key: cluster, uid, resourceVersion, type.
 *
 * @param reason        status.reason, e.g. TopologyAffinityError or UnexpectedAdmissionError
 * @param groupName     the Volcano/coscheduling pod group (annotation scheduling.k8s.io/group-name)
 * @param queueName     label kueue.x-k8s.io/queue-name
 * @param readyChangedAt when the Ready condition last changed
 * @param scheduling    the PodScheduled condition while it is False: its reason (Unschedulable, SchedulingGated), the
 *                      scheduler's message and when it turned; null once scheduled, and in views sent before it was
 * @param placement     the pod's node selector, required node affinity and tolerations; null when it names none
 */
public record PodStatusFact(String uid, String namespace, String name, String resourceVersion, WatchEventType type,
                            Instant observedAt, Instant createdAt, Instant scheduledAt, Instant deletedAt,
                            String nodeName, String schedulerName, String phase, String reason, String message,
                            Owner owner, String groupName, String queueName, Map<String, Long> gpuResources,
                            Instant readyChangedAt, List<ContainerStatusFact> containers, NotScheduled scheduling,
                            PodPlacement placement) {

    public PodStatusFact {
        gpuResources = gpuResources == null ? Map.of() : Map.copyOf(gpuResources);
        containers = containers == null ? List.of() : List.copyOf(containers);
    }

    /** A view that says nothing of its scheduling condition or placement. */
    public PodStatusFact(String uid, String namespace, String name, String resourceVersion, WatchEventType type,
                         Instant observedAt, Instant createdAt, Instant scheduledAt, Instant deletedAt,
                         String nodeName, String schedulerName, String phase, String reason, String message,
                         Owner owner, String groupName, String queueName, Map<String, Long> gpuResources,
                         Instant readyChangedAt, List<ContainerStatusFact> containers) {
        this(uid, namespace, name, resourceVersion, type, observedAt, createdAt, scheduledAt, deletedAt, nodeName,
                schedulerName, phase, reason, message, owner, groupName, queueName, gpuResources, readyChangedAt,
                containers, null, null);
    }
}
