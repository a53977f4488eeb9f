package io.gpumeter.common.fact;

/**
 * One device HAMi allocated to one container of a pod (hami.io/vgpu-devices-allocated).
 *
 * @param cores percentage of the card's cores reserved; 0 means no core reservation
 */
public record VgpuGrant(int container, String uuid, String type, long memoryMib, int cores) {
}
