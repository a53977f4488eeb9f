package io.gpumeter.collector.usage;

/**
 * DCGM's blank values ({@code dcgm_structs.h}): a field it could not read (not supported, not found, not permitted)
 * is written as a sentinel just above its base blank, which an exporter may pass on as a number. Stored as a reading,
 * a blank power would be 140 TW and a blank counter a jump of 9.2e18.
 */
final class DcgmBlanks {

    /** DCGM_FP64_BLANK, 2^47, and the three sentinels after it. */
    private static final double FP64_BLANK = 140737488355328.0;
    /** DCGM_INT64_BLANK, 0x7ffffffffffffff0; as a double every sentinel after it is 2^63. */
    private static final double INT64_BLANK = 0x7ffffffffffffff0L;

    private DcgmBlanks() {
    }

    static boolean isFp64Blank(double value) {
        return value >= FP64_BLANK && value <= FP64_BLANK + 3;
    }

    static boolean isInt64Blank(double value) {
        return value >= INT64_BLANK;
    }
}
