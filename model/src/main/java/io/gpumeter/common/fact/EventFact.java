package io.gpumeter.common.fact;

import java.time.Instant;

/**
 * One observed version of a core Event (v1 or events.k8s.io/v1) about a pod, workload, pod group or node.
 * Natural key: cluster, uid, resourceVersion.
 *
 * @param eventType Normal or Warning
 * @param firstAt   when the event first happened (firstTimestamp, else eventTime)
 * @param lastAt    when it last happened (lastTimestamp, series.lastObservedTime, else firstAt)
 */
public record EventFact(String uid, String namespace, String name, String resourceVersion, Instant observedAt,
                        String involvedKind, String involvedNamespace, String involvedName, String involvedUid,
                        String reason, String eventType, String message, String reportingComponent, String host,
                        Instant firstAt, Instant lastAt, int count) {
}
