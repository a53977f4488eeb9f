package io.gpumeter.common.fact;

/**
 * One request's metering facts (namespaces, nodes, pods) and governance facts (queues, admission, events, pod
 * states), which the ledger stores in one transaction: both or neither.
 */
public record FactBundle(FactBatch facts, GovernanceBatch governance) {
}
