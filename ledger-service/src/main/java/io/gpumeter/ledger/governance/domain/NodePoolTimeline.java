package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.ledger.inventory.domain.NodeInventory;
import io.gpumeter.ledger.inventory.domain.NodePools;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * One node's pool at each of its versions, named by {@link NodePools} from the labels that version carries, so that a
 * change is put in the pool the node was in when it changed. The node's label versions hold its pool labels and card
 * model; a node whose labels were never stored is named from the GPU labels of its statuses (its model). A change
 * before the first named version takes that version's pool; a deletion, which may carry no labels, names none.
 */
final class NodePoolTimeline {

    private record Named(VersionKey key, Instant observedAt, String uid, String pool) {
    }

    private static final Comparator<Named> BY_INSTANT = Comparator
            .comparing(Named::observedAt, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(Named::key);

    private final List<Named> byVersion;
    private final List<Named> byInstant;

    private NodePoolTimeline(List<Named> byVersion) {
        this.byVersion = byVersion;
        this.byInstant = byVersion.stream().sorted(BY_INSTANT).toList();
    }

    /** @param labels and {@code statuses} each ordered as {@link Versions#ordered} orders them */
    static NodePoolTimeline of(String node, List<NodeFact> labels, List<NodeStatusFact> statuses, NodePools pools) {
        List<Named> named = new ArrayList<>();
        for (NodeFact v : labels) {
            if (v.type() != WatchEventType.DELETED) {
                named.add(new Named(VersionKey.of(v.resourceVersion(), v.observedAt()), v.observedAt(),
                        Objects.toString(v.uid(), ""), pools.of(new NodeInventory(node, v.labels(), v.gpus()), null)));
            }
        }
        if (named.isEmpty()) {
            for (NodeStatusFact s : statuses) {
                if (s.type() != WatchEventType.DELETED) {
                    named.add(new Named(VersionKey.of(s.resourceVersion(), s.observedAt()), s.observedAt(),
                            Objects.toString(s.uid(), ""), pools.of(new NodeInventory(node, s.gpuLabels(), List.of()), null)));
                }
            }
            named.sort(Comparator.comparing(Named::key));
        }
        return new NodePoolTimeline(named);
    }

    /** The pool at a version of any of the node's views (they share its resourceVersions). */
    String atVersion(String resourceVersion, Instant observedAt) {
        return pool(VersionKey.latestAtOrBefore(byVersion, Named::key, VersionKey.of(resourceVersion, observedAt)), byVersion);
    }

    /** The pool at an instant, for what is seen apart from the node's versions (its stack pods, its driver). */
    String atInstant(Instant at) {
        int lo = 0;
        int hi = byInstant.size() - 1;
        Named found = null;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            Instant seen = byInstant.get(mid).observedAt();
            if (seen == null || !seen.isAfter(at)) {
                found = byInstant.get(mid);
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return pool(found, byInstant);
    }

    /** The pool of the first version of a uid (the node as it was added), else the pool at that instant. */
    String firstOf(String uid, Instant at) {
        return byVersion.stream().filter(n -> n.uid().equals(uid)).findFirst().map(Named::pool).orElseGet(() -> atInstant(at));
    }

    private static String pool(Named found, List<Named> ordered) {
        if (found != null) {
            return found.pool();
        }
        return ordered.isEmpty() ? NodePools.UNKNOWN : ordered.get(0).pool();
    }
}
