package io.gpumeter.ledger.governance.domain;

/**
 * The queue-wait dimensions of one waiting object.
 *
 * @param clusterQueue the ClusterQueue that admitted it, when known (else the ledger maps its LocalQueue)
 * @param scheduler    the scheduler that places its pods
 */
public record QueueKeys(QueueSource source, String uid, String namespace, String name, String clusterQueue,
                        String localQueue, String volcanoQueue, String scheduler) {
}
