package io.gpumeter.ledger.triage.domain;

import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.domain.Incident;

import java.time.Instant;
import java.util.List;

/**
 * Every fact a triage of one node reads, up to {@code at}.
 *
 * @param incidents the incidents on the node (its cards', its MIG layout's, its kernel OOMs), started up to {@code at}
 * @param stack     the node's GPU stack at {@code at}
 * @param changes   the change book's entries of the node and the cluster before {@code at}, newest first
 */
public record NodeCase(String cluster, String node, Instant at, List<Incident> incidents, NodeStack stack,
                       List<BookedChange> changes) {

    public NodeCase {
        incidents = incidents == null ? List.of() : List.copyOf(incidents);
        changes = changes == null ? List.of() : List.copyOf(changes);
    }
}
