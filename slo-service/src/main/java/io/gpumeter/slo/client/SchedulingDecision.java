package io.gpumeter.slo.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The part of the ledger's scheduling decision for a pod ({@code GET /api/v1/scheduling-decisions?namespace=&pod=})
 * that SLOs read: the queues the pod went through, null when it went through none.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SchedulingDecision(String cluster, String kind, String namespace, String name, Queue queue) {

    /**
     * The Kueue and Volcano queues, each null when the ledger does not know it.
     *
     * @param clusterQueue the ClusterQueue that admitted the pod, else the one its LocalQueue feeds
     * @param localQueue   the Kueue LocalQueue in the pod's namespace (label {@code kueue.x-k8s.io/queue-name})
     * @param volcanoQueue the Volcano queue of the pod's PodGroup
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Queue(String clusterQueue, String localQueue, String volcanoQueue) {
    }
}
