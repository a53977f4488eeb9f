package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;

/**
 * One observed version of a GPU-stack workload — a DaemonSet or Deployment the configuration names as a component
 * (the GPU Operator's driver, toolkit, device plugin, dcgm-exporter, MIG manager, feature discovery; HAMi's device
 * plugin and scheduler; the DRA driver's kubelet plugin; Kueue's controller; Volcano's scheduler). Natural key:
 * cluster, namespace, name, resourceVersion, type.
 *
 * @param kind      DaemonSet or Deployment
 * @param component the configured component it is, e.g. {@code device-plugin}
 * @param images    the images of its pod template's containers, in order (a version is read off each)
 */
public record StackWorkloadFact(String namespace, String name, String uid, String kind, String component,
                                String resourceVersion, WatchEventType type, Instant observedAt, List<String> images) {

    public StackWorkloadFact {
        images = images == null ? List.of() : List.copyOf(images);
    }
}
