package io.gpumeter.slo.domain;

/**
 * Readings of one gauge folded together: how many, their sum and their largest, so minutes and pods merge exactly
 * (the mean of a merge is its sum over its count, never a mean of means).
 */
public record GaugeStat(long samples, double sum, double max) {

    public static final GaugeStat NONE = new GaugeStat(0, 0, 0);

    public static GaugeStat of(double value) {
        return new GaugeStat(1, value, value);
    }

    public GaugeStat plus(GaugeStat other) {
        if (other.samples == 0) {
            return this;
        }
        if (samples == 0) {
            return other;
        }
        return new GaugeStat(samples + other.samples, sum + other.sum, Math.max(max, other.max));
    }

    /** The mean reading, null without readings. */
    public Double mean() {
        return samples == 0 ? null : sum / samples;
    }

    /** The largest reading, null without readings. */
    public Double maxOrNull() {
        return samples == 0 ? null : max;
    }
}
