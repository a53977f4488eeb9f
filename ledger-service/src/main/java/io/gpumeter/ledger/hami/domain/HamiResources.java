package io.gpumeter.ledger.hami.domain;

import java.util.Map;

/**
 * The extended resources through which a pod asks HAMi for a share of a card, and the cores HAMi reserves when a pod
 * names none. Configuration, since HAMi's own names are configurable ({@code resourceName}, {@code resourceMem}, …).
 *
 * @param count             the number of vGPUs asked for ({@code nvidia.com/gpu})
 * @param memory            memory per vGPU in MiB ({@code nvidia.com/gpumem})
 * @param memoryPercentage  memory per vGPU as a percentage of the card's ({@code nvidia.com/gpumem-percentage})
 * @param cores             cores per vGPU as a percentage ({@code nvidia.com/gpucores})
 * @param defaultCores      the cores HAMi reserves for a vGPU whose pod names none (its {@code defaultCores}, 0)
 */
public record HamiResources(String count, String memory, String memoryPercentage, String cores, int defaultCores) {

    public static final HamiResources DEFAULTS = new HamiResources("nvidia.com/gpu", "nvidia.com/gpumem",
            "nvidia.com/gpumem-percentage", "nvidia.com/gpucores", 0);

    /** Whether the pod's resources ask HAMi for a share of a card rather than for whole cards. */
    public boolean asksForShare(Map<String, Long> resources) {
        return resources.containsKey(memory) || resources.containsKey(memoryPercentage) || resources.containsKey(cores);
    }
}
