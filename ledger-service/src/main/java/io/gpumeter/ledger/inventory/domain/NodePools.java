package io.gpumeter.ledger.inventory.domain;

import java.util.List;

/**
 * How the ledger names a node's pool, wherever it groups by one (the fragmentation probe, the change book): the first
 * of the configured pool labels the node carries, else its card model as feature discovery or HAMi knows it, else the
 * model its DRA cards publish, else {@link #UNKNOWN}.
 */
public final class NodePools {

    public static final String UNKNOWN = "unknown";

    private final List<String> labels;

    /** @param labels {@code gpumeter.ledger.fragmentation.pool-labels}, first present wins */
    public NodePools(List<String> labels) {
        this.labels = List.copyOf(labels);
    }

    /** @param publishedModel the model the node's DRA cards publish, null where none is known */
    public String of(NodeInventory node, String publishedModel) {
        for (String label : labels) {
            String value = node.labels().get(label);
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        String model = node.model();
        if (model == null) {
            model = publishedModel;
        }
        return model == null ? UNKNOWN : model;
    }

    /** The labels, in order, to tell a book derived under other ones. */
    public String rules() {
        return String.join(",", labels);
    }
}
