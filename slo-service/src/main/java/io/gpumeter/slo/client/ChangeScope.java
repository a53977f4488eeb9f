package io.gpumeter.slo.client;

/**
 * One scope of a bulk read of the ledger's change book: a node of a cluster and, with {@code clusterWide}, the
 * cluster's cluster-wide changes, over [from, to), at most {@code limit}, newest first when asked.
 */
public record ChangeScope(String cluster, String node, String from, String to, Boolean clusterWide, Integer limit,
                          Boolean newestFirst) {
}
