package io.gpumeter.slo.domain;

import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;

/**
 * Mergeable latency histograms in microseconds: recorded per minute, stored compressed, merged for any window.
 */
public final class LatencyHistograms {

    /** Relative precision of every value read back: HdrHistogram with 3 significant digits is within 0.1%. */
    public static final int SIGNIFICANT_DIGITS = 3;
    public static final String PRECISION = "values are within 0.1% (3 significant digits)";
    /** The largest latency accepted, one day: anything longer is a unit error, not a slow request. */
    public static final double MAX_MS = 86_400_000d;

    private LatencyHistograms() {
    }

    /** An empty histogram that grows to any value. */
    public static Histogram empty() {
        Histogram h = new Histogram(SIGNIFICANT_DIGITS);
        h.setAutoResize(true);
        return h;
    }

    public static long micros(double ms) {
        return Math.round(ms * 1000d);
    }

    public static byte[] encode(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.flip();
        buffer.get(bytes);
        return bytes;
    }

    /**
     * Adds an encoded histogram into {@code into}.
     *
     * @throws IllegalStateException when the bytes are not a compressed histogram
     */
    public static void mergeInto(Histogram into, byte[] encoded) {
        try {
            into.add(Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(encoded), 0));
        } catch (DataFormatException e) {
            throw new IllegalStateException("a stored latency histogram is corrupt", e);
        }
    }

    /** Nearest-rank p50/p95/p99 and the maximum, each the top of its 0.1% bucket. */
    public static LatencySummary summary(Histogram h) {
        if (h.getTotalCount() == 0) {
            return LatencySummary.EMPTY;
        }
        return new LatencySummary(h.getTotalCount(), ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(95)),
                ms(h.getValueAtPercentile(99)), ms(h.getMaxValue()));
    }

    /** The value at a percentile (0 < p ≤ 100) in milliseconds, null when empty. */
    public static Double percentileMs(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? null : ms(h.getValueAtPercentile(percentile));
    }

    /** Requests at or under the threshold; the bucket holding the threshold counts whole (0.1% slack). */
    public static long countAtOrBelow(Histogram h, double thresholdMs) {
        return h.getTotalCount() == 0 ? 0 : h.getCountBetweenValues(0, micros(thresholdMs));
    }

    /** Whether the value at the percentile falls in the threshold's 0.1% bucket or below it. */
    public static boolean percentileAtOrBelow(Histogram h, double percentile, double thresholdMs) {
        return h.getValueAtPercentile(percentile) <= h.highestEquivalentValue(micros(thresholdMs));
    }

    private static double ms(long micros) {
        return micros / 1000d;
    }
}
