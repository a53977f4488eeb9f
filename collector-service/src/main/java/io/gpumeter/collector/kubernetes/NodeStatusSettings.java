package io.gpumeter.collector.kubernetes;

import java.util.List;
import java.util.Set;

/**
 * What a node's status fact keeps ({@code gpumeter.collector.node-status.*}).
 *
 * @param resources     GPU resources beyond NVIDIA's domain whose capacity and allocatable are kept: a name
 *                      ({@code amd.com/gpu}), or a domain ending in a slash ({@code example.com/}) for all of its names
 * @param ignoredLabels labels of NVIDIA's domain left out because they move without anything changing (GPU feature
 *                      discovery's {@code nvidia.com/gfd.timestamp}, rewritten on every refresh); kept, each would make
 *                      every refresh of every node a new status
 */
public record NodeStatusSettings(List<String> resources, Set<String> ignoredLabels) {

    /** The default left-out label, as {@code gpumeter.collector.node-status.ignored-labels} has it. */
    public static final String GFD_TIMESTAMP = "nvidia.com/gfd.timestamp";

    public static final NodeStatusSettings DEFAULT = new NodeStatusSettings(List.of(), Set.of(GFD_TIMESTAMP));

    public NodeStatusSettings {
        resources = resources == null ? List.of() : resources.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
        ignoredLabels = ignoredLabels == null ? Set.of() : Set.copyOf(ignoredLabels.stream().map(String::trim).toList());
    }

    /** NVIDIA's domain (whole cards, MIG slices, HAMi's shares under their names there) and the configured ones. */
    public boolean isGpuResource(String name) {
        if (GpuResources.isGpuResource(name)) {
            return true;
        }
        for (String configured : resources) {
            if (configured.endsWith("/") ? name.startsWith(configured) && name.length() > configured.length()
                    : configured.equals(name)) {
                return true;
            }
        }
        return false;
    }
}
