package io.gpumeter.collector.usage;

/** How a producer's number relates to the unit of its usage field. */
enum ValueScale {
    /** 0..100, divided by 100. */
    PERCENT,
    /** 0..1 as is. */
    RATIO,
    /** MiB, W, MHz: non-negative as is. */
    QUANTITY,
    /** Bytes, divided by 2^20 into MiB. */
    BYTES,
    /** A bitmask, an Xid or a flag: a non-negative integer. */
    CODE,
    /** Errors, rows, pages: a non-negative integer. */
    COUNT;

    /** The value in the field's unit, or null when it is outside what this scale allows. */
    Double normalise(double value) {
        if (!Double.isFinite(value) || value < 0) {
            return null;
        }
        double v = value + 0.0; // -0.0 becomes 0.0
        return switch (this) {
            case PERCENT -> v <= 100 ? v / 100 : null;
            case RATIO -> v <= 1 ? v : null;
            case QUANTITY -> v;
            case BYTES -> v / (1024.0 * 1024.0);
            case CODE, COUNT -> v == Math.rint(v) ? v : null;
        };
    }

    String describe() {
        return switch (this) {
            case PERCENT -> "percentage 0..100";
            case RATIO -> "ratio 0..1";
            case QUANTITY -> "non-negative quantity";
            case BYTES -> "non-negative byte count";
            case CODE -> "non-negative integer code";
            case COUNT -> "non-negative integer count";
        };
    }
}
