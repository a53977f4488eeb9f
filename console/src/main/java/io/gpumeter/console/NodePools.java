package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Each node's pool, from one read of the ledger's capacity over the window per cluster, node and model: the card
 * model the inventory knows the node by, which is how the ledger's fragmentation names a node's pool where no pool
 * label does (a node that changed models in the window is in the one it supplied most card-hours as). Pools are named
 * with their cluster when the fleet has more than one.
 */
final class NodePools {

    static final String CLUSTER_WIDE = "cluster-wide";
    static final String UNKNOWN = "unknown";

    private final Map<String, String> model = new HashMap<>();
    private final Map<String, BigDecimal> hours = new HashMap<>();
    private final Set<String> clusters = new HashSet<>();

    private NodePools() {
    }

    /**
     * From {@code GET /api/v1/capacity?…&groupBy=cluster,node,model} (null when it was not read), for the changes to
     * be grouped: whether they span clusters decides whether pools are named with their cluster.
     */
    static NodePools of(JsonNode capacity, List<BookChange> changes) {
        NodePools pools = new NodePools();
        changes.stream().map(BookChange::cluster).filter(Objects::nonNull).forEach(pools.clusters::add);
        for (JsonNode row : capacity == null ? MissingNode.getInstance() : capacity) {
            JsonNode group = row.path("group");
            String cluster = Format.text(group, "cluster");
            String node = Format.text(group, "node");
            String m = Format.text(group, "model");
            if (node == null || m == null || m.isBlank()) {
                continue;
            }
            String key = cluster + "/" + node;
            BigDecimal h = Format.decimal(row, "cardHours");
            if (!pools.hours.containsKey(key) || h.compareTo(pools.hours.get(key)) > 0) {
                pools.hours.put(key, h);
                pools.model.put(key, m);
            }
        }
        return pools;
    }

    /** The pool of the change's node; {@link #CLUSTER_WIDE} for a change of no node. */
    String of(BookChange change) {
        String pool = change.node() == null ? CLUSTER_WIDE
                : model.getOrDefault(change.cluster() + "/" + change.node(), UNKNOWN);
        return clusters.size() > 1 && change.cluster() != null ? change.cluster() + "/" + pool : pool;
    }
}
