package io.gpumeter.console;

import java.util.List;
import java.util.Objects;

/**
 * The pool each change is drawn and counted in: the {@code pool} the ledger's change book names for it — its node's
 * pool at the change (the first pool label the node carried, else its card model, as the ledger's fragmentation names
 * pools) — {@link #CLUSTER_WIDE} for a change of no node, {@link #UNKNOWN} where the ledger named none (a row stored
 * before the book named pools, until the ledger derives it again). Pools are named with their cluster when the changes
 * span more than one.
 */
final class NodePools {

    static final String CLUSTER_WIDE = "cluster-wide";
    static final String UNKNOWN = "unknown";

    private final boolean manyClusters;

    private NodePools(boolean manyClusters) {
        this.manyClusters = manyClusters;
    }

    /** For these changes: whether they span clusters decides whether pools are named with their cluster. */
    static NodePools of(List<BookChange> changes) {
        return new NodePools(changes.stream().map(BookChange::cluster).filter(Objects::nonNull).distinct().limit(2).count() > 1);
    }

    /** The pool of the change; {@link #CLUSTER_WIDE} for a change of no node. */
    String of(BookChange change) {
        String pool = change.node() == null ? CLUSTER_WIDE
                : change.pool() == null || change.pool().isBlank() ? UNKNOWN : change.pool();
        return manyClusters && change.cluster() != null ? change.cluster() + "/" + pool : pool;
    }
}
