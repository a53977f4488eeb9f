package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What one version of a Node offers the GPU stack's workloads: the capacity and allocatable of its GPU resources,
 * whether it takes new pods, and the GPU labels feature discovery and the MIG manager keep on it. A fact of its own,
 * apart from {@link NodeFact}, so that a change of what a node offers never re-derives the books of its pods. The
 * collector sends a version only when one of these fields changed. Natural key: cluster, name, resourceVersion, type.
 *
 * @param capacity         {@code status.capacity} of the GPU resources (NVIDIA's domain and any configured)
 * @param allocatable      {@code status.allocatable} of the same resources
 * @param unschedulable    {@code spec.unschedulable} (cordoned)
 * @param gpuLabels        the node's labels of NVIDIA's domain (GPU feature discovery, MIG manager, operator)
 * @param suiteAnnotations the node's annotations of gpumeter's own domain ({@code gpumeter.io/}), which name the
 *                         runbook action that last changed the node
 */
public record NodeStatusFact(String name, String uid, String resourceVersion, WatchEventType type, Instant observedAt,
                             Instant createdAt, Map<String, Long> capacity, Map<String, Long> allocatable,
                             boolean unschedulable, List<NodeTaint> taints, Map<String, String> gpuLabels,
                             Map<String, String> suiteAnnotations) {

    public NodeStatusFact {
        capacity = capacity == null ? Map.of() : Map.copyOf(capacity);
        allocatable = allocatable == null ? Map.of() : Map.copyOf(allocatable);
        taints = taints == null ? List.of() : List.copyOf(taints);
        gpuLabels = gpuLabels == null ? Map.of() : Map.copyOf(gpuLabels);
        suiteAnnotations = suiteAnnotations == null ? Map.of() : Map.copyOf(suiteAnnotations);
    }
}
