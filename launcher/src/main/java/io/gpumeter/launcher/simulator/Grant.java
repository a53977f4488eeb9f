package io.gpumeter.launcher.simulator;

/**
 * One piece of a physical GPU held by a pod.
 *
 * @param migProfile null unless the piece is a MIG instance
 * @param migUuid    null unless the piece is a MIG instance
 * @param memoryMib  the framebuffer reserved: the card's for a whole card, the instance's for MIG, gpumem for HAMi
 * @param cores      percent of the card's cores reserved: 100 for a whole card, 0 when HAMi reserves none
 */
public record Grant(String gpuUuid, MigProfile migProfile, String migUuid, long memoryMib, int cores) {
}
