package io.gpumeter.common.fact;

import java.time.Instant;

/**
 * One observed version of a Volcano Job (batch.volcano.sh/v1alpha1): its queue, gang size, phase and retries.
 * Natural key: cluster, uid, resourceVersion, type.
 *
 * @param phaseChangedAt status.state.lastTransitionTime
 */
public record VolcanoJobFact(String uid, String namespace, String name, String resourceVersion, WatchEventType type,
                             Instant observedAt, Instant createdAt, Instant deletedAt, String queue,
                             Integer minAvailable, String schedulerName, String phase, String phaseReason,
                             Instant phaseChangedAt, Integer retryCount) {
}
