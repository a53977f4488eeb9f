package io.gpumeter.ledger.governance.domain;

/** What waited: a Kueue Workload for admission, a Volcano PodGroup for its gang, a plain GPU pod for a node. */
public enum QueueSource {
    KUEUE, VOLCANO, POD
}
