package io.gpumeter.slo.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.time.Instant;

/**
 * The ledger's answer for one pod of a pod queues read ({@code POST /api/v1/pod-queues}): {@code known} false when the
 * ledger holds no scheduling record of the pod, which is not the same as a pod that went through no queue
 * ({@code queue} null). {@code createdAt} is the pod's creation as the ledger's pod facts hold it (null when unknown).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PodQueue(String namespace, String pod, boolean known, Queue queue, Instant createdAt) {

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
