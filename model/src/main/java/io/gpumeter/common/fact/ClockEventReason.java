package io.gpumeter.common.fact;

import java.util.EnumMap;
import java.util.Map;

/**
 * Why a card's clocks are below what was asked: the bits of NVML's clocks-event reasons ({@code
 * nvmlClocksEventReason*}, formerly {@code nvmlClocksThrottleReason*}, the same values), which DCGM copies one to one
 * into {@code DCGM_FI_DEV_CLOCKS_EVENT_REASONS} (field 112, formerly {@code DCGM_FI_DEV_CLOCK_THROTTLE_REASONS}) and
 * nvidia-smi prints as {@code clocks_event_reasons.active}. Each reason is kept as its own 0/1 series.
 */
public enum ClockEventReason {
    GPU_IDLE(0x1L, Kind.INFORMATIONAL),
    APPLICATIONS_CLOCKS_SETTING(0x2L, Kind.INFORMATIONAL),
    SW_POWER_CAP(0x4L, Kind.POWER),
    HW_SLOWDOWN(0x8L, Kind.POWER_OR_THERMAL),
    SYNC_BOOST(0x10L, Kind.SYNC_BOOST),
    SW_THERMAL_SLOWDOWN(0x20L, Kind.THERMAL),
    HW_THERMAL_SLOWDOWN(0x40L, Kind.THERMAL),
    HW_POWER_BRAKE_SLOWDOWN(0x80L, Kind.POWER),
    DISPLAY_CLOCK_SETTING(0x100L, Kind.INFORMATIONAL);

    /** What holds the clocks down. */
    public enum Kind {
        /** Clocks lowered on purpose (nothing to run, a clocks setting): no slowdown of work that runs. */
        INFORMATIONAL,
        /** The card's power limit or the system's power brake. */
        POWER,
        /** The card's temperature. */
        THERMAL,
        /** NVML's hardware slowdown: heat, a power brake or a power spike, without saying which. */
        POWER_OR_THERMAL,
        /** Another card of its sync boost group. */
        SYNC_BOOST
    }

    /** Every bit NVML names; a bitmask with others set names reasons this build does not know. */
    public static final long KNOWN_BITS = 0x1FFL;

    private static final Map<ClockEventReason, UsageField> FIELDS = new EnumMap<>(ClockEventReason.class);

    static {
        for (ClockEventReason reason : values()) {
            FIELDS.put(reason, UsageField.valueOf("CLOCKS_EVENT_" + reason.name()));
        }
    }

    private final long bit;
    private final Kind kind;

    ClockEventReason(long bit, Kind kind) {
        this.bit = bit;
        this.kind = kind;
    }

    public long bit() {
        return bit;
    }

    public Kind kind() {
        return kind;
    }

    /** Whether the reason slows down work that runs: power, heat, the hardware slowdown or a sync boost group. */
    public boolean slowsWork() {
        return kind != Kind.INFORMATIONAL;
    }

    /** Whether this reason's bit is set in a bitmask. */
    public boolean in(long mask) {
        return (mask & bit) != 0;
    }

    /** The 0/1 usage series of this reason. */
    public UsageField field() {
        return FIELDS.get(this);
    }

    /** The reason whose series a field is, or null for any other field. */
    public static ClockEventReason of(UsageField field) {
        for (Map.Entry<ClockEventReason, UsageField> e : FIELDS.entrySet()) {
            if (e.getValue() == field) {
                return e.getKey();
            }
        }
        return null;
    }
}
