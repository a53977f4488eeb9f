package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;

/**
 * One observed version of a ResourceSlice (resource.k8s.io/v1): devices one driver publishes in one pool.
 * Natural key: cluster, name, resourceVersion, type.
 *
 * @param poolGeneration the pool's generation; slices of an older generation are outdated
 */
public record ResourceSliceFact(String name, String resourceVersion, WatchEventType type, Instant observedAt,
                                String driver, String pool, long poolGeneration, String nodeName,
                                List<DraDevice> devices) {

    public ResourceSliceFact {
        devices = devices == null ? List.of() : List.copyOf(devices);
    }
}
