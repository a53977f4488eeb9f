package io.gpumeter.common.fact;

import java.util.List;

/**
 * One delivery of host minutes from a collector to the ledger: the containers of GPU pods and the GPU nodes. Stored
 * whole or not at all; a minute sent again is stored once, the version covering more of the minute kept.
 */
public record HostBatch(String cluster, List<HostContainerMinute> containers, List<HostNodeMinute> nodes) {

    public HostBatch {
        containers = containers == null ? List.of() : List.copyOf(containers);
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    /** How many minutes it carries. */
    public int size() {
        return containers.size() + nodes.size();
    }
}
