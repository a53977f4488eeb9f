package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;

/**
 * One observed version of a DeviceClass (resource.k8s.io/v1). Natural key: cluster, name, resourceVersion, type.
 *
 * @param selectors the CEL expressions that pick the class's devices
 */
public record DeviceClassFact(String name, String resourceVersion, WatchEventType type, Instant observedAt,
                              List<String> selectors, String extendedResourceName) {

    public DeviceClassFact {
        selectors = selectors == null ? List.of() : List.copyOf(selectors);
    }
}
