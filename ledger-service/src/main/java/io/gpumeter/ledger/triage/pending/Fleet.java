package io.gpumeter.ledger.triage.pending;

import java.time.Instant;
import java.util.List;

/**
 * The nodes of one cluster as they stood at an instant, with what is held on them.
 *
 * @param nodes the nodes not deleted by the instant, by name
 */
public record Fleet(String cluster, Instant at, List<NodeAt> nodes) {

    public Fleet {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    public static Fleet empty(String cluster, Instant at) {
        return new Fleet(cluster, at, List.of());
    }

    /** Whether any node's status (capacity, allocatable, cordon, taints) is stored by the instant. */
    public boolean statusesKnown() {
        return nodes.stream().anyMatch(NodeAt::statusKnown);
    }
}
