package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.WorkloadFact;

import java.util.Map;

/**
 * The ClusterQueues and Kueue's pending positions at an instant, keyed by cluster (and namespace), read once for
 * every Workload judged: one Workload's queue is taken from them.
 */
record KueueQueues(Map<String, QueueObjectFact> clusterQueues, Map<String, WaitFactsRepository.Position> positions) {

    /** A Workload's queue: its ClusterQueue (the one it names, else its position's) and its place in it. */
    KueueQueue of(String cluster, String namespace, String workload, String clusterQueue, WorkloadFact latest) {
        WaitFactsRepository.Position position = positions.get(cluster + "|" + namespace + "|" + workload);
        String cq = clusterQueue != null ? clusterQueue : position == null ? null : position.clusterQueue();
        return new KueueQueue(cq == null ? null : clusterQueues.get(cluster + "|" + cq),
                position == null ? null : position.place(), Waitings.total(latest));
    }
}
