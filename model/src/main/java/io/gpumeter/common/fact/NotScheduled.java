package io.gpumeter.common.fact;

import java.time.Instant;

/**
 * A pod's PodScheduled condition while it is False: why the scheduler has not placed it and since when. Often the
 * only place a refusal is written: a scheduler that records no FailedScheduling event, or one whose events expired,
 * still keeps the condition on the pod.
 *
 * @param reason  Unschedulable, or SchedulingGated while a gate (Kueue's admission, say) holds the pod back
 * @param message the scheduler's message, e.g. {@code 0/4 nodes are available: 4 Insufficient nvidia.com/gpu.}
 * @param since   the condition's lastTransitionTime
 */
public record NotScheduled(String reason, String message, Instant since) {
}
