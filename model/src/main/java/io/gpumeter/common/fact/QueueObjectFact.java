package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One observed version of a ClusterQueue, LocalQueue, ResourceFlavor or Volcano Queue. Natural key: cluster, kind,
 * namespace (empty for cluster-scoped objects), name, resourceVersion, type.
 *
 * @param clusterQueue for a LocalQueue, the ClusterQueue it feeds
 * @param nodeLabels   for a ResourceFlavor, the node labels that select its nodes
 */
public record QueueObjectFact(QueueObjectKind kind, String namespace, String name, String uid, String resourceVersion,
                              WatchEventType type, Instant observedAt, String apiVersion, String cohort,
                              String clusterQueue, Map<String, String> nodeLabels, Integer weight,
                              Integer pendingWorkloads, Integer admittedWorkloads, List<QuotaLine> quotas,
                              List<ObjectCondition> conditions) {

    public QueueObjectFact {
        nodeLabels = nodeLabels == null ? Map.of() : Map.copyOf(nodeLabels);
        quotas = quotas == null ? List.of() : List.copyOf(quotas);
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }
}
