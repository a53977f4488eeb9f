package io.gpumeter.common.fact;

/**
 * A physical GPU as a node registration (HAMi's node-nvidia-register) names it.
 *
 * @param memoryMib device memory as registered, possibly scaled by HAMi's deviceMemoryScaling
 */
public record RegisteredGpu(String uuid, String model, long memoryMib, int cores, int splitCount, Integer numa,
                            Boolean healthy) {
}
