package io.gpumeter.ledger.governance.service;

import io.gpumeter.ledger.governance.domain.PodGroupTrail;
import io.gpumeter.ledger.governance.domain.TrailEntry;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * The scheduling audit of one object (Q6): where it stands, every wait that ended in admission, and the ordered
 * trail of decisions that explains it.
 *
 * @param kind      Workload, PodGroup or Pod
 * @param createdAt when the object was created (its metadata.creationTimestamp, else when the ledger first saw it)
 * @param queue     the queues the object went through; null when it went through none
 * @param phases    for a PodGroup, its phase trail
 */
public record Decision(String cluster, String kind, String namespace, String name, String uid, Instant createdAt,
                       Queue queue, String state, Instant waitingSince, String reasonClass, String rootCauseClass, String reason,
                       String message, int rejections, List<Wait> waits, List<PodGroupTrail.Phase> phases,
                       List<TrailEntry> trail) {

    /**
     * The Kueue and Volcano queues an object went through, each null when unknown.
     *
     * @param clusterQueue the ClusterQueue that admitted it, else the one its LocalQueue points to
     * @param localQueue   the Kueue LocalQueue it was submitted to, in its own namespace
     * @param volcanoQueue the Volcano queue of its PodGroup
     */
    public record Queue(String clusterQueue, String localQueue, String volcanoQueue) {

        /** Null when no queue is known at all, so a plain pod carries no queue object. */
        public static Queue of(String clusterQueue, String localQueue, String volcanoQueue) {
            return clusterQueue == null && localQueue == null && volcanoQueue == null ? null
                    : new Queue(clusterQueue, localQueue, volcanoQueue);
        }
    }

    /** One wait that ended in admission. */
    public record Wait(Instant waitFrom, Instant reservedAt, Instant admittedAt, BigDecimal waitSeconds, boolean requeued) {
    }
}
