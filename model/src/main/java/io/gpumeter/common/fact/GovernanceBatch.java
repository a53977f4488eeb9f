package io.gpumeter.common.fact;

import java.util.List;

/**
 * One idempotent delivery of governance observations (queues, admission, queue positions, scheduling events, GPU
 * faults) from a collector to the ledger; every element has a natural key.
 */
public record GovernanceBatch(String cluster, List<WorkloadFact> workloads, List<QueueObjectFact> queueObjects,
                              List<PodGroupFact> podGroups, List<VolcanoJobFact> volcanoJobs, List<EventFact> events,
                              List<PodStatusFact> podStatuses, List<XidFact> xids, List<GpuAddressFact> gpuAddresses,
                              List<LogSignalFact> logSignals, List<PendingPositionFact> pendingPositions,
                              List<NodeStatusFact> nodeStatuses, List<StackWorkloadFact> stackWorkloads,
                              List<StackPodFact> stackPods, List<DriverSightingFact> driverSightings) {

    public GovernanceBatch {
        workloads = workloads == null ? List.of() : List.copyOf(workloads);
        queueObjects = queueObjects == null ? List.of() : List.copyOf(queueObjects);
        podGroups = podGroups == null ? List.of() : List.copyOf(podGroups);
        volcanoJobs = volcanoJobs == null ? List.of() : List.copyOf(volcanoJobs);
        events = events == null ? List.of() : List.copyOf(events);
        podStatuses = podStatuses == null ? List.of() : List.copyOf(podStatuses);
        xids = xids == null ? List.of() : List.copyOf(xids);
        gpuAddresses = gpuAddresses == null ? List.of() : List.copyOf(gpuAddresses);
        logSignals = logSignals == null ? List.of() : List.copyOf(logSignals);
        pendingPositions = pendingPositions == null ? List.of() : List.copyOf(pendingPositions);
        nodeStatuses = nodeStatuses == null ? List.of() : List.copyOf(nodeStatuses);
        stackWorkloads = stackWorkloads == null ? List.of() : List.copyOf(stackWorkloads);
        stackPods = stackPods == null ? List.of() : List.copyOf(stackPods);
        driverSightings = driverSightings == null ? List.of() : List.copyOf(driverSightings);
    }

    /** A batch of the given facts, sorted into their lists by type; anything else is ignored. */
    public static GovernanceBatch of(String cluster, List<?> facts) {
        return new GovernanceBatch(cluster, only(facts, WorkloadFact.class), only(facts, QueueObjectFact.class),
                only(facts, PodGroupFact.class), only(facts, VolcanoJobFact.class), only(facts, EventFact.class),
                only(facts, PodStatusFact.class), only(facts, XidFact.class), only(facts, GpuAddressFact.class),
                only(facts, LogSignalFact.class), only(facts, PendingPositionFact.class),
                only(facts, NodeStatusFact.class), only(facts, StackWorkloadFact.class), only(facts, StackPodFact.class),
                only(facts, DriverSightingFact.class));
    }

    /** This batch with {@code podStatuses} instead of its own. */
    public GovernanceBatch withPodStatuses(List<PodStatusFact> podStatuses) {
        return new GovernanceBatch(cluster, workloads, queueObjects, podGroups, volcanoJobs, events, podStatuses, xids,
                gpuAddresses, logSignals, pendingPositions, nodeStatuses, stackWorkloads, stackPods, driverSightings);
    }

    private static <T> List<T> only(List<?> facts, Class<T> type) {
        return facts.stream().filter(type::isInstance).map(type::cast).toList();
    }

    public int size() {
        return workloads.size() + queueObjects.size() + podGroups.size() + volcanoJobs.size() + events.size()
                + podStatuses.size() + xids.size() + gpuAddresses.size() + logSignals.size() + pendingPositions.size()
                + nodeStatuses.size() + stackWorkloads.size() + stackPods.size() + driverSightings.size();
    }
}
