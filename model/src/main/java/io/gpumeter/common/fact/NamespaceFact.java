package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.Map;

/**
 * One observed version of a Namespace. Natural key: cluster, name, resourceVersion, type.
 *
 * @param labelTimes for each label key, when it was last set according to metadata.managedFields
 */
public record NamespaceFact(String name, String uid, String resourceVersion, WatchEventType type, Instant observedAt,
                            Map<String, String> labels, Map<String, Instant> labelTimes) {

    public NamespaceFact {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        labelTimes = labelTimes == null ? Map.of() : Map.copyOf(labelTimes);
    }
}
