package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One observed version of a Node: its labels (GPU feature discovery, time-slicing, MIG strategy) and the GPUs
 * HAMi registered on it. Natural key: cluster, name, resourceVersion, type.
 */
public record NodeFact(String name, String uid, String resourceVersion, WatchEventType type, Instant observedAt,
                       Map<String, String> labels, List<RegisteredGpu> gpus) {

    public NodeFact {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        gpus = gpus == null ? List.of() : List.copyOf(gpus);
    }
}
