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
 */
public record Change(String scope, String node, Instant at, ChangeKind kind, String subject, String before,
                     String after, String source) {
}
