package io.gpumeter.common.fact;

import java.util.List;

/**
 * One idempotent delivery of observations from a collector to the ledger; every element has a natural key.
 *
 * @param cluster the cluster all facts belong to, so one suite can meter several clusters
 */
public record FactBatch(String cluster, List<NamespaceFact> namespaces, List<NodeFact> nodes, List<PodFact> pods) {

    public FactBatch {
        namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        pods = pods == null ? List.of() : List.copyOf(pods);
    }

    public int size() {
        return namespaces.size() + nodes.size() + pods.size();
    }
}
