package io.gpumeter.common.fact;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A measured GPU quantity. Activities are ratios 0..1 of the sample period (GPU_UTIL arrives in percent and is
 * divided by 100); memory in MiB, power in W, clocks in MHz; THROTTLE_REASONS a bitmask; XID the last Xid code; the
 * memory-health fields (ROW_REMAP_FAILURE to RETIRED_PAGES_PENDING) flags and counts of the whole card, as DCGM
 * reports them. The CLOCKS_EVENT_ fields are the bitmask decoded sample by sample, one 0/1 series per
 * {@link ClockEventReason}, so that a minute's mean is the share of its samples the reason was active in. The three
 * counters (TOTAL_ENERGY_MJ, POWER_VIOLATION_NS, THERMAL_VIOLATION_NS) are kept by the ledger as raw readings, from
 * which it derives the per-minute ENERGY_J, POWER_VIOLATION_S and THERMAL_VIOLATION_S; those are never delivered.
 * Each field says its {@link #unit()}, so a chart scales a ratio to percent and nothing else.
 *
 * <p>A card's <em>activity</em> in a minute is read by one rule, {@link #ACTIVITY}, wherever it is judged: the
 * ledger's used and idle hours (its SQL function {@code ledger.card_activity}), alert-service's idle rule and the
 * console's pages.
 */
public enum UsageField {
    /** Field 203: a kernel was resident; says whether anything ran, not how much of the chip worked. */
    GPU_UTIL(Unit.RATIO),
    /** Field 1001. */
    GR_ENGINE_ACTIVE(Unit.RATIO),
    /** Field 1002. */
    SM_ACTIVE(Unit.RATIO),
    /** Field 1003. */
    SM_OCCUPANCY(Unit.RATIO),
    /** Field 1004. */
    TENSOR_ACTIVE(Unit.RATIO),
    /** Field 1005. */
    DRAM_ACTIVE(Unit.RATIO),
    FB_USED_MIB(Unit.MIB),
    FB_FREE_MIB(Unit.MIB),
    FB_RESERVED_MIB(Unit.MIB),
    POWER_W(Unit.WATT),
    SM_CLOCK_MHZ(Unit.MHZ),
    THROTTLE_REASONS(Unit.BITMASK),
    XID(Unit.CODE),
    /** HAMi per-container memory in use. */
    VGPU_MEMORY_USED_MIB(Unit.MIB),
    /** HAMi per-container memory limit. */
    VGPU_MEMORY_LIMIT_MIB(Unit.MIB),
    /** HAMi per-container core utilization, relative to the whole card. */
    VGPU_CORE_UTIL(Unit.RATIO),
    /** Field 395: 1 once a row remap failed, until a reset clears it: the card needs a reset, or a replacement. */
    ROW_REMAP_FAILURE(Unit.FLAG),
    /** Field 396: 1 while a row remap waits for a GPU reset to take effect. */
    ROW_REMAP_PENDING(Unit.FLAG),
    /** Field 393: rows remapped for uncorrectable errors over the card's life (persistent). */
    UNCORRECTABLE_REMAPPED_ROWS(Unit.COUNT),
    /** Field 311: double-bit (uncorrectable) ECC errors since the driver loaded; 0 again after a reset or reload. */
    ECC_DBE_VOLATILE(Unit.COUNT),
    /** Field 392: memory pages waiting to be retired at the next reset (cards before Ampere). */
    RETIRED_PAGES_PENDING(Unit.COUNT),
    /** 1 while nothing runs and the clocks drop to idle (informational). */
    CLOCKS_EVENT_GPU_IDLE(Unit.RATIO),
    /** 1 while the clocks are held by the applications clocks setting (informational). */
    CLOCKS_EVENT_APPLICATIONS_CLOCKS_SETTING(Unit.RATIO),
    /** 1 while the software power cap holds the clocks below the requested ones. */
    CLOCKS_EVENT_SW_POWER_CAP(Unit.RATIO),
    /** 1 while a hardware slowdown halves the clocks or more: heat, a power brake or a power spike, not said which. */
    CLOCKS_EVENT_HW_SLOWDOWN(Unit.RATIO),
    /** 1 while a sync boost group holds this card at the lowest clocks of the group. */
    CLOCKS_EVENT_SYNC_BOOST(Unit.RATIO),
    /** 1 while the software thermal cap holds the clocks below the requested ones. */
    CLOCKS_EVENT_SW_THERMAL_SLOWDOWN(Unit.RATIO),
    /** 1 while the hardware thermal slowdown halves the clocks or more. */
    CLOCKS_EVENT_HW_THERMAL_SLOWDOWN(Unit.RATIO),
    /** 1 while an external power brake (the system's power supply) halves the clocks or more. */
    CLOCKS_EVENT_HW_POWER_BRAKE_SLOWDOWN(Unit.RATIO),
    /** 1 while the display clock setting limits the clocks (informational). */
    CLOCKS_EVENT_DISPLAY_CLOCK_SETTING(Unit.RATIO),
    /** Field 156: the card's energy since the driver loaded, in mJ; a counter, 0 again after a reload. */
    TOTAL_ENERGY_MJ(Unit.MILLIJOULE),
    /** Field 240: time the card was held back by its power limit since the driver loaded, in ns; a counter. */
    POWER_VIOLATION_NS(Unit.NANOSECOND),
    /** Field 241: time the card was held back by heat since the driver loaded, in ns; a counter. */
    THERMAL_VIOLATION_NS(Unit.NANOSECOND),
    /**
     * Derived by the ledger from TOTAL_ENERGY_MJ, never delivered: a minute row's sum is the joules the card used in
     * the seconds the counter covered, its samples those seconds, so its mean is the card's mean power in W.
     */
    ENERGY_J(Unit.JOULE),
    /** Derived by the ledger from POWER_VIOLATION_NS: sum the seconds held back, samples the seconds covered. */
    POWER_VIOLATION_S(Unit.SECOND),
    /** Derived by the ledger from THERMAL_VIOLATION_NS: sum the seconds held back, samples the seconds covered. */
    THERMAL_VIOLATION_S(Unit.SECOND);

    /** How a field's values are counted. */
    public enum Unit {
        /** A share 0..1 of the sample period (or of the card); a minute's mean is still 0..1. */
        RATIO,
        MIB,
        WATT,
        MHZ,
        BITMASK,
        /** A code (the last Xid), not a quantity. */
        CODE,
        /** 1 or 0. */
        FLAG,
        COUNT,
        MILLIJOULE,
        NANOSECOND,
        JOULE,
        SECOND
    }

    /**
     * The order a minute's activity is read in: SM_ACTIVE where the minute measured it, else GR_ENGINE_ACTIVE, else
     * GPU_UTIL. SM_ACTIVE says how much of the chip worked; GR_ENGINE_ACTIVE only that some engine was busy, and
     * GPU_UTIL (field 203) only that a kernel was resident, so each later one reads a card at least as busy as it
     * is, and is taken only where nothing finer was measured. The choice is made minute by minute: a card whose
     * profiling counters come and go is read by the finest field of each minute.
     */
    public static final List<UsageField> ACTIVITY = List.of(SM_ACTIVE, GR_ENGINE_ACTIVE, GPU_UTIL);

    private final Unit unit;

    UsageField(Unit unit) {
        this.unit = unit;
    }

    public Unit unit() {
        return unit;
    }

    /** One minute's activity and the field it was read from. */
    public record Reading(UsageField field, double value) {
    }

    /**
     * A minute's activity by {@link #ACTIVITY}: the first field {@code measured} has a value for (a measured 0
     * counts: the card was idle), empty when the minute measured none of them.
     *
     * @param measured a field's mean in the minute, or null when the minute has no value of it
     */
    public static Optional<Reading> activity(Function<UsageField, Double> measured) {
        for (UsageField field : ACTIVITY) {
            Double value = measured.apply(field);
            if (value != null && !value.isNaN()) {
                return Optional.of(new Reading(field, value));
            }
        }
        return Optional.empty();
    }

    /** Whether only the ledger computes this field: a delivery naming it is refused. */
    public boolean derived() {
        return this == ENERGY_J || this == POWER_VIOLATION_S || this == THERMAL_VIOLATION_S;
    }
}
