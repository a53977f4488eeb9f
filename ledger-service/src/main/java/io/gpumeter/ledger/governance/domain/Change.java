package io.gpumeter.ledger.governance.domain;

import java.time.Instant;

/**
 * One change as derived from two consecutive versions of its scope, before changes of the same subject within a
 * minute are folded into one ({@link ChangeFold}).
 *
 * @param scope  what the change is derived from and replaced with: {@code node/<name>}, {@code component/<name>} or
 *               {@code queue/<kind>/<name>}
 * @param node   the node, null for a cluster-wide change
 * @param source where the change was seen; one the suite made itself starts with {@code gpumeter } and names the action
 * @param pool   the node's pool at the change's version ({@link NodeChanges} names it), null for a cluster-wide change
 */
public record Change(String scope, String node, Instant at, ChangeKind kind, String subject, String before,
                     String after, String source, String pool) {

    /** A change of no pool yet: a cluster-wide one, or a node's before {@link NodeChanges} names its pool. */
    public Change(String scope, String node, Instant at, ChangeKind kind, String subject, String before, String after,
                  String source) {
        this(scope, node, at, kind, subject, before, after, source, null);
    }

    Change inPool(String named) {
        return new Change(scope, node, at, kind, subject, before, after, source, named);
    }
}
