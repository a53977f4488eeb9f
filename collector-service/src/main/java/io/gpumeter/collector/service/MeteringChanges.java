package io.gpumeter.collector.service;

import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.WatchEventType;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Drops Node and Namespace updates that change nothing the ledger meters. Nodes update their status and HAMi its
 * handshake annotation every few seconds; only labels, the GPU registration and namespace label times matter,
 * and forwarding every heartbeat would make the ledger re-derive every pod on the node each time.
 */
final class MeteringChanges {

    private final Map<String, Integer> lastSent = new ConcurrentHashMap<>();

    /** True when the fact must go to the ledger; pods always do. */
    boolean isNews(Object fact) {
        if (fact instanceof NodeFact node) {
            return remember("node/" + node.name(), node.type(), Objects.hash(node.labels(), node.gpus()));
        }
        if (fact instanceof NamespaceFact ns) {
            return remember("namespace/" + ns.name(), ns.type(), Objects.hash(ns.labels(), ns.labelTimes()));
        }
        return true;
    }

    private boolean remember(String key, WatchEventType type, int fingerprint) {
        if (type == WatchEventType.DELETED) {
            lastSent.remove(key);
            return true;
        }
        Integer previous = lastSent.put(key, fingerprint);
        return previous == null || previous != fingerprint;
    }
}
