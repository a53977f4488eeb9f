package io.gpumeter.ledger.governance.service;

import java.time.Instant;

/**
 * The queue a pod went through: {@code known} false when the ledger holds no scheduling record of the pod, which is
 * not the same as a pod that went through no queue ({@code queue} null). {@code createdAt} is the pod's creation as
 * its versions say (metadata.creationTimestamp, else when the ledger first saw it): where its start-up is measured from.
 */
public record PodQueue(String namespace, String pod, boolean known, Decision.Queue queue, Instant createdAt) {
}
