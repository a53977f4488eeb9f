package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;

/**
 * One observed version of a Volcano PodGroup (scheduling.volcano.sh/v1beta1): gang size, queue and phase with the
 * Unschedulable/Scheduled conditions. Natural key: cluster, uid, resourceVersion, type.
 */
public record PodGroupFact(String uid, String namespace, String name, String resourceVersion, WatchEventType type,
                           Instant observedAt, Instant createdAt, Instant deletedAt, String queue, Integer minMember,
                           String priorityClassName, String phase, Integer running, Integer succeeded, Integer failed,
                           Owner owner, List<ObjectCondition> conditions) {

    public PodGroupFact {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }
}
