package io.gpumeter.collector.usage;

import io.gpumeter.common.fact.ClockEventReason;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes a clocks-event bitmask ({@code DCGM_FI_DEV_CLOCKS_EVENT_REASONS}, nvidia-smi's {@code
 * clocks_event_reasons.active}) into one 0/1 value per {@link ClockEventReason}, sample by sample: a minute rollup keeps
 * the sum and the maximum of a series, from which no bitmask can be taken apart again.
 */
public final class ClockEvents {

    /** Above this a double no longer holds every integer: no bitmask NVML defines comes near it. */
    private static final double EXACT = 0x1p53;

    /** A bitmask taken apart: the value of each reason's series, and the set bits no reason is known for. */
    public record Decoded(long mask, List<Value> values, long unknownBits) {
    }

    /** One reason's value in one sample: 1 while active, else 0. */
    public record Value(ClockEventReason reason, double value) {
    }

    private ClockEvents() {
    }

    /**
     * @throws IllegalArgumentException saying why the value is no bitmask: negative, fractional, not finite, or too
     *                                  large to be one (DCGM's blank values, which stand for "no reading", are)
     */
    public static Decoded decode(double value) {
        if (!Double.isFinite(value) || value < 0 || value != Math.rint(value)) {
            throw new IllegalArgumentException("value " + value + " is not a bitmask (a non-negative integer)");
        }
        if (DcgmBlanks.isInt64Blank(value)) {
            throw new IllegalArgumentException("value " + value + " is DCGM's blank (no reading), not a bitmask");
        }
        if (value >= EXACT) {
            throw new IllegalArgumentException("value " + value + " is too large to be a clocks-event bitmask");
        }
        return decode((long) value);
    }

    /** Every reason of {@link ClockEventReason}, 1 where its bit is set. */
    public static Decoded decode(long mask) {
        List<Value> values = new ArrayList<>(ClockEventReason.values().length);
        for (ClockEventReason reason : ClockEventReason.values()) {
            values.add(new Value(reason, reason.in(mask) ? 1 : 0));
        }
        return new Decoded(mask, List.copyOf(values), mask & ~ClockEventReason.KNOWN_BITS);
    }

    /** The problem line for a bitmask with bits no reason is known for (the known ones are kept). */
    static String unknownBits(String what, Decoded decoded) {
        return what + ": bits 0x" + Long.toHexString(decoded.unknownBits()) + " of clocks-event bitmask 0x"
                + Long.toHexString(decoded.mask()) + " name no reason this version knows; the known ones are kept";
    }
}
