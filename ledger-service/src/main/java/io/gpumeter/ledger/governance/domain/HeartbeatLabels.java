package io.gpumeter.ledger.governance.domain;

import java.util.List;

/**
 * Labels left out of the change book because they move on every heartbeat (GFD's {@code nvidia.com/gfd.timestamp}
 * and the like): each entry is a label key, or a prefix ending in {@code *}.
 */
public final class HeartbeatLabels {

    private final List<String> exact;
    private final List<String> prefixes;
    private final String rules;

    public HeartbeatLabels(List<String> entries) {
        List<String> cleaned = entries.stream().map(String::trim).filter(e -> !e.isEmpty()).sorted().toList();
        this.exact = cleaned.stream().filter(e -> !e.endsWith("*")).toList();
        this.prefixes = cleaned.stream().filter(e -> e.endsWith("*")).map(e -> e.substring(0, e.length() - 1)).toList();
        this.rules = String.join(",", cleaned);
    }

    public boolean ignored(String key) {
        return exact.contains(key) || prefixes.stream().anyMatch(key::startsWith);
    }

    /** The rules as one text, to tell whether the book was derived under the same ones. */
    public String rules() {
        return rules;
    }
}
