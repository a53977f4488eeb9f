package io.gpumeter.ledger.governance.service;

/**
 * The queue a pod went through: {@code known} false when the ledger holds no scheduling record of the pod, which is
 * not the same as a pod that went through no queue ({@code queue} null).
 */
public record PodQueue(String namespace, String pod, boolean known, Decision.Queue queue) {
}
