package io.gpumeter.common.fact;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a pod may be placed, as its spec says: {@code spec.nodeSelector}, the terms of its required node affinity
 * ({@code requiredDuringSchedulingIgnoredDuringExecution}, any one of which a node must match) and its tolerations.
 * What the scheduler only prefers, and the tolerations every pod is given of a node not ready or unreachable, are left
 * out: they never decide whether a node can take the pod.
 */
public record PodPlacement(Map<String, String> nodeSelector, List<NodeSelectorTerm> nodeAffinity,
                           List<PodToleration> tolerations) {

    public PodPlacement {
        // sorted, so that a placement read back is written in the same order as the one written
        nodeSelector = nodeSelector == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(nodeSelector));
        nodeAffinity = nodeAffinity == null ? List.of() : List.copyOf(nodeAffinity);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    }

    /** The placement, or null when it names nothing: a pod that may go anywhere carries no placement. */
    public static PodPlacement of(Map<String, String> nodeSelector, List<NodeSelectorTerm> nodeAffinity,
                                  List<PodToleration> tolerations) {
        boolean none = (nodeSelector == null || nodeSelector.isEmpty()) && (nodeAffinity == null || nodeAffinity.isEmpty())
                && (tolerations == null || tolerations.isEmpty());
        return none ? null : new PodPlacement(nodeSelector, nodeAffinity, tolerations);
    }
}
