package io.gpumeter.common.fact;

import java.time.Instant;

/**
 * Where a pending Kueue Workload stood in its queues when the visibility API
 * ({@code visibility.kueue.x-k8s.io pendingworkloads}) was read. Natural key: cluster, clusterQueue, namespace,
 * workload, observedAt.
 *
 * @param workload               the Workload's name
 * @param positionInClusterQueue 0 = next to be considered for admission in the ClusterQueue
 * @param positionInLocalQueue   0 = first of its LocalQueue
 * @param observedAt             when the collector read the position
 */
public record PendingPositionFact(String clusterQueue, String namespace, String workload, String localQueue,
                                  Integer priority, Integer positionInClusterQueue, Integer positionInLocalQueue,
                                  Instant observedAt) {
}
