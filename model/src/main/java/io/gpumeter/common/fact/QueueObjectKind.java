package io.gpumeter.common.fact;

/** The queueing objects that carry quota, but no workload of their own. */
public enum QueueObjectKind {
    CLUSTER_QUEUE, LOCAL_QUEUE, RESOURCE_FLAVOR, VOLCANO_QUEUE
}
