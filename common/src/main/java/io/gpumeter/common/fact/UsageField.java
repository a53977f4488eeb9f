package io.gpumeter.common.fact;

/**
 * A measured GPU quantity. Activities are ratios 0..1 of the sample period (GPU_UTIL arrives in percent and is
 * divided by 100); memory in MiB, power in W, clocks in MHz; THROTTLE_REASONS a bitmask; XID the last Xid code.
 */
public enum UsageField {
    /** Field 203: a kernel was resident; says whether anything ran, not how much of the chip worked. */
    GPU_UTIL,
    /** Field 1001. */
    GR_ENGINE_ACTIVE,
    /** Field 1002. */
    SM_ACTIVE,
    /** Field 1003. */
    SM_OCCUPANCY,
    /** Field 1004. */
    TENSOR_ACTIVE,
    /** Field 1005. */
    DRAM_ACTIVE,
    FB_USED_MIB,
    FB_FREE_MIB,
    FB_RESERVED_MIB,
    POWER_W,
    SM_CLOCK_MHZ,
    THROTTLE_REASONS,
    XID,
    /** HAMi per-container memory in use. */
    VGPU_MEMORY_USED_MIB,
    /** HAMi per-container memory limit. */
    VGPU_MEMORY_LIMIT_MIB,
    /** HAMi per-container core utilization, relative to the whole card. */
    VGPU_CORE_UTIL
}
