package io.gpumeter.common.fact;

/**
 * A measured GPU quantity. Activities are ratios 0..1 of the sample period (GPU_UTIL arrives in percent and is
 * divided by 100); memory in MiB, power in W, clocks in MHz; THROTTLE_REASONS a bitmask; XID the last Xid code; the
 * memory-health fields (ROW_REMAP_FAILURE to RETIRED_PAGES_PENDING) flags and counts of the whole card, as DCGM
 * reports them. The CLOCKS_EVENT_ fields are the bitmask decoded sample by sample, one 0/1 series per
 * {@link ClockEventReason}, so that a minute's mean is the share of its samples the reason was active in. The three
 * counters (TOTAL_ENERGY_MJ, POWER_VIOLATION_NS, THERMAL_VIOLATION_NS) are kept by the ledger as raw readings, from
 * which it derives the per-minute ENERGY_J, POWER_VIOLATION_S and THERMAL_VIOLATION_S; those are never delivered.
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
    RETIRED_PAGES_PENDING,
    /** 1 while nothing runs and the clocks drop to idle (informational). */
    CLOCKS_EVENT_GPU_IDLE,
    /** 1 while the clocks are held by the applications clocks setting (informational). */
    CLOCKS_EVENT_APPLICATIONS_CLOCKS_SETTING,
    /** 1 while the software power cap holds the clocks below the requested ones. */
    CLOCKS_EVENT_SW_POWER_CAP,
    /** 1 while a hardware slowdown halves the clocks or more: heat, a power brake or a power spike, not said which. */
    CLOCKS_EVENT_HW_SLOWDOWN,
    /** 1 while a sync boost group holds this card at the lowest clocks of the group. */
    CLOCKS_EVENT_SYNC_BOOST,
    /** 1 while the software thermal cap holds the clocks below the requested ones. */
    CLOCKS_EVENT_SW_THERMAL_SLOWDOWN,
    /** 1 while the hardware thermal slowdown halves the clocks or more. */
    CLOCKS_EVENT_HW_THERMAL_SLOWDOWN,
    /** 1 while an external power brake (the system's power supply) halves the clocks or more. */
    CLOCKS_EVENT_HW_POWER_BRAKE_SLOWDOWN,
    /** 1 while the display clock setting limits the clocks (informational). */
    CLOCKS_EVENT_DISPLAY_CLOCK_SETTING,
    /** Field 156: the card's energy since the driver loaded, in mJ; a counter, 0 again after a reload. */
    TOTAL_ENERGY_MJ,
    /** Field 240: time the card was held back by its power limit since the driver loaded, in ns; a counter. */
    POWER_VIOLATION_NS,
    /** Field 241: time the card was held back by heat since the driver loaded, in ns; a counter. */
    THERMAL_VIOLATION_NS,
    /**
     * Derived by the ledger from TOTAL_ENERGY_MJ, never delivered: a minute row's sum is the joules the card used in
     * the seconds the counter covered, its samples those seconds, so its mean is the card's mean power in W.
     */
    ENERGY_J,
    /** Derived by the ledger from POWER_VIOLATION_NS: sum the seconds held back, samples the seconds covered. */
    POWER_VIOLATION_S,
    /** Derived by the ledger from THERMAL_VIOLATION_NS: sum the seconds held back, samples the seconds covered. */
    THERMAL_VIOLATION_S;

    /** Whether only the ledger computes this field: a delivery naming it is refused. */
    public boolean derived() {
        return this == ENERGY_J || this == POWER_VIOLATION_S || this == THERMAL_VIOLATION_S;
    }
}
