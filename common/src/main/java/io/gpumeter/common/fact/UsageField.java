package io.gpumeter.common.fact;

/**
 * A measured GPU quantity. Activities are ratios 0..1 of the sample period (GPU_UTIL arrives in percent and is
 * divided by 100); memory in MiB, power in W, clocks in MHz; THROTTLE_REASONS a bitmask; XID the last Xid code; the
 * memory-health fields (ROW_REMAP_FAILURE onwards) flags and counts of the whole card, as DCGM reports them.
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
    VGPU_CORE_UTIL,
    /** Field 395: 1 once a row remap failed, until a reset clears it: the card needs a reset, or a replacement. */
    ROW_REMAP_FAILURE,
    /** Field 396: 1 while a row remap waits for a GPU reset to take effect. */
    ROW_REMAP_PENDING,
    /** Field 393: rows remapped for uncorrectable errors over the card's life (persistent). */
    UNCORRECTABLE_REMAPPED_ROWS,
    /** Field 311: double-bit (uncorrectable) ECC errors since the driver loaded; 0 again after a reset or reload. */
    ECC_DBE_VOLATILE,
    /** Field 392: memory pages waiting to be retired at the next reset (cards before Ampere). */
    RETIRED_PAGES_PENDING
}
