package io.gpumeter.console;

import java.util.List;

/**
 * The console's one palette: series take {@link #SERIES} in order, and a colour that means something (open is red,
 * recovered green, free the page's grey) is named here once, so every chart says the same thing the same way.
 */
final class Palette {

    static final String BLUE = "#2f6fb0";
    static final String ORANGE = "#f0a13a";
    static final String PURPLE = "#8e5fb0";
    static final String RED = "#c2504a";
    static final String GREEN = "#3c8d5a";
    static final String TEAL = "#4aa3a8";
    /** Series in the order they take colours. */
    static final List<String> SERIES = List.of(BLUE, ORANGE, PURPLE, RED, GREEN, TEAL);

    /** The lighter and mid blues of a percentile family (p50, p95) under the p99's {@link #BLUE}. */
    static final String LIGHT_BLUE = "#9fc0e3";
    static final String MID_BLUE = "#5b8fc7";
    /** What is neither good nor bad: ended unrecovered, a reference line. */
    static final String GREY = "#8a97a6";
    /** A card or a share nobody holds. */
    static final String FREE = "#e3e8ef";
    /** The empty end of a held-share scale and the warm end of a busy one. */
    static final String PALE_BLUE = "#eef2f7";
    static final String PALE_ORANGE = "#fdf3e3";
    static final String WHITE = "#ffffff";
    static final String INK = "#333333";
    /** A span shaded behind the lines: an event, a wait. */
    static final String SHADE_RED = "rgba(194,80,74,0.12)";
    static final String SHADE_ORANGE = "rgba(240,161,58,0.15)";
    static final String DARK_ORANGE = "#8a5a12";

    private Palette() {
    }

    /** The colour of the {@code index}th series. */
    static String series(int index) {
        return SERIES.get(Math.floorMod(index, SERIES.size()));
    }
}
