package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The fields of a pod's governance view that its metering view of the same version does not hold: what a pod version
 * keeps beside its metering payload when it carries its governance view (ADR 0016), and what a bundle sends of a
 * view instead of the whole ({@link FactBundle#carriedStatuses()}). With the pod version they make the whole
 * governance view again.
 */
public record CarriedStatus(String reason, String message, String groupName, String queueName, Instant deletedAt,
                            Instant readyChangedAt, List<ContainerStatusFact> containers, NotScheduled scheduling,
                            PodPlacement placement) {

    public CarriedStatus {
        containers = containers == null ? List.of() : List.copyOf(containers);
    }

    /** Fields that say nothing of the scheduling condition or the placement. */
    public CarriedStatus(String reason, String message, String groupName, String queueName, Instant deletedAt,
                         Instant readyChangedAt, List<ContainerStatusFact> containers) {
        this(reason, message, groupName, queueName, deletedAt, readyChangedAt, containers, null, null);
    }

    public static CarriedStatus of(PodStatusFact status) {
        return new CarriedStatus(status.reason(), status.message(), status.groupName(), status.queueName(),
                status.deletedAt(), status.readyChangedAt(), status.containers(), status.scheduling(),
                status.placement());
    }

    /** The governance view these fields make of a pod version. */
    public PodStatusFact on(PodFact pod) {
        return new PodStatusFact(pod.uid(), pod.namespace(), pod.name(), pod.resourceVersion(), pod.type(),
                pod.observedAt(), pod.createdAt(), pod.scheduledAt(), deletedAt, pod.nodeName(), pod.schedulerName(),
                pod.phase(), reason, message, pod.owner(), groupName, queueName, pod.gpuResources(), readyChangedAt,
                containers, scheduling, placement);
    }

    /**
     * What {@code pod} keeps to carry {@code status}: present only when the two are views of one version and the pod
     * version with these fields makes exactly {@code status}, so nothing the status said is lost.
     */
    public static Optional<CarriedStatus> carriedBy(PodFact pod, PodStatusFact status) {
        CarriedStatus carried = of(status);
        return carried.on(pod).equals(status) ? Optional.of(carried) : Optional.empty();
    }
}
