package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;

/**
 * One observed version of a Kueue Workload (kueue.x-k8s.io v1beta1 or v1beta2). Natural key: cluster, uid,
 * resourceVersion, type.
 *
 * @param queueName     spec.queueName, the LocalQueue in the workload's namespace
 * @param clusterQueue  status.admission.clusterQueue, once quota is reserved
 * @param assignments   status.admission.podSetAssignments
 * @param requeueCount  status.requeueState.count
 */
public record WorkloadFact(String uid, String namespace, String name, String resourceVersion, WatchEventType type,
                           Instant observedAt, String apiVersion, Instant createdAt, Instant deletedAt,
                           String queueName, Integer priority, String priorityClassName, Boolean active, Owner owner,
                           List<PodSetRequest> podSets, String clusterQueue, List<PodSetAssignment> assignments,
                           List<ObjectCondition> conditions, List<AdmissionCheckState> admissionChecks,
                           Integer requeueCount) {

    public WorkloadFact {
        podSets = podSets == null ? List.of() : List.copyOf(podSets);
        assignments = assignments == null ? List.of() : List.copyOf(assignments);
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        admissionChecks = admissionChecks == null ? List.of() : List.copyOf(admissionChecks);
    }
}
