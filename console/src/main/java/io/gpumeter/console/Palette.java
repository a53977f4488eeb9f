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

    /** Muted and dark tones: a past state (resolved, before), a reference, a label on a cell. */
    static final String MUTED_BLUE = "#9fb3c8";
    static final String SLATE = "#5b6b7c";
    static final String NIGHT = "#1d2733";
    static final String LIGHT_GREY = "#c9cfd6";
    static final String PALE_GREEN = "#c9d6cf";
    /** A warm scale, darkest first: the causes of allocated time that was not busy, worst first. */
    static final List<String> WARM = List.of("#a04e12", "#d2731f", "#eb9a3c", "#f7cd8e");
    /** A blue scale, lightest first: how many of something a cell holds. */
    static final List<String> BLUE_SCALE = List.of("#cfe0f1", BLUE, "#14304f");
    /** Twelve colours told apart, the series' first: kinds of things, each keeping its own. */
    static final List<String> KINDS = List.of(BLUE, PURPLE, RED, GREEN, ORANGE, "#c9a227", TEAL, "#b04a7a", "#7a5b2f",
            MID_BLUE, "#d9742b", SLATE);

    private Palette() {
    }

    /** The colour of the {@code index}th series. */
    static String series(int index) {
        return SERIES.get(Math.floorMod(index, SERIES.size()));
    }
}
