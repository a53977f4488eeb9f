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
 */
public record PodStatusFact(String uid, String namespace, String name, String resourceVersion, WatchEventType type,
                            Instant observedAt, Instant createdAt, Instant scheduledAt, Instant deletedAt,
                            String nodeName, String schedulerName, String phase, String reason, String message,
                            Owner owner, String groupName, String queueName, Map<String, Long> gpuResources,
                            Instant readyChangedAt, List<ContainerStatusFact> containers) {

    public PodStatusFact {
        gpuResources = gpuResources == null ? Map.of() : Map.copyOf(gpuResources);
        containers = containers == null ? List.of() : List.copyOf(containers);
    }
}
