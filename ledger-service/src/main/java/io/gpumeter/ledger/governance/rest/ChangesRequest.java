package io.gpumeter.ledger.governance.rest;

import java.util.List;

/** A bulk read of the change book: many scopes, each read as its own window of it. */
public record ChangesRequest(List<ChangeScope> scopes) {

    /**
     * One scope: a cluster, optionally one node, a window [from, to), kinds (none: all), whether a node's scope also
     * takes the cluster-wide changes (default true), at most {@code limit} changes (default 1,000), oldest first unless
     * {@code newestFirst}; with a {@code pool}, only the changes of nodes that were in that pool when they changed
     * (so none cluster-wide).
     */
    public record ChangeScope(String cluster, String node, String from, String to, List<String> kinds,
                              Boolean clusterWide, Integer limit, Boolean newestFirst, String pool) {
    }
}
