package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.PodPlacement;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.ledger.governance.domain.QueueSource;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * One pod, Kueue Workload or Volcano PodGroup that waits, as the diagnosis tree reads it: what Kueue, Volcano or the
 * scheduler said about it (and the class of that text), what one of its pods asks for and where it may go.
 *
 * @param state          PENDING, EVICTED or INACTIVE
 * @param told           the class of what was said ({@link PendingReason#classify}), OTHER when nothing was
 * @param reason         the reason said: FailedScheduling, Unschedulable, SchedulingGated, RequestCheck, Pending…
 * @param toldAt         when it was said; null when unknown
 * @param asks           the GPU resources one pod asks for
 * @param placementKnown whether the pod's view says where it may go (a view collected before views carried their
 *                       placement says nothing, and then every node that offers the resource is a candidate)
 * @param podReason      a pod's status.reason (TopologyAffinityError, UnexpectedAdmissionError), null otherwise
 * @param kueue          what Kueue says of a Workload's queue; null for pods and pod groups
 */
public record Waiting(QueueSource source, String namespace, String name, String state, Instant waitingSince,
                      PendingReason told, String reason, String message, Instant toldAt, String scheduler,
                      Map<String, Long> asks, PodPlacement placement, boolean placementKnown, String podReason,
                      String podMessage, String clusterQueue, String localQueue, String volcanoQueue, KueueQueue kueue) {

    /** The pod status reasons of a kubelet that refused a pod placed on its node, which so never starts. */
    public static final Set<String> KUBELET_REFUSALS = Set.of("TopologyAffinityError", "UnexpectedAdmissionError");

    public Waiting {
        asks = asks == null ? Map.of() : Map.copyOf(asks);
        told = told == null ? PendingReason.OTHER : told;
    }

    public String key() {
        return namespace + "/" + name;
    }

    /** Whether a scheduling gate holds the pod back (Kueue's until its Workload is admitted). */
    public boolean gated() {
        return source == QueueSource.POD && "SchedulingGated".equals(reason);
    }
}
