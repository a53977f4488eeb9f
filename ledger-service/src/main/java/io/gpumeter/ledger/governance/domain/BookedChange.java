package io.gpumeter.ledger.governance.domain;

import java.time.Instant;

/**
 * One row of the change book: the changes of one subject within one minute, from the first one's {@code before} to
 * the last one's {@code after}, at the first one's instant, with how many there were.
 *
 * @param id   stable across derivations: a hash of cluster, scope, kind, subject and minute
 * @param pool the node's pool at the first change's version, as the fragmentation probe names pools; null for a
 *             cluster-wide change (and for a row stored before pools were, until the book is derived again)
 */
public record BookedChange(String id, String cluster, String scope, String node, Instant at, ChangeKind kind,
                           String subject, String before, String after, String source, int count, String pool) {

    /** Whether the suite made this change itself (a runbook action), so that it is never read as a cause. */
    public boolean bySuite() {
        return source != null && source.startsWith(SuiteMarks.SOURCE_PREFIX);
    }
}
