package io.gpumeter.console;

import java.util.List;

/** The groupings a page over a window of days offers, and the one the address asks for. */
final class WindowGroups {

    private WindowGroups() {
    }

    /** The grouping asked for, the first offered when none; null (and the page says why) when it is not offered. */
    static String of(String text, List<String> allowed, Page page) {
        if (text == null || text.isBlank()) {
            return allowed.get(0);
        }
        if (!allowed.contains(text.strip())) {
            page.message(Message.error("That grouping is not offered", "groupBy must be one of " + String.join(", ", allowed)
                    + ", got '" + text + "'.", "Pick one in the form above."));
            return null;
        }
        return text.strip();
    }

    /** Bars per group: the groups across, the unit up, a legend above. */
    static ChartOption bars(List<String> keys, String unit) {
        return ChartOption.chart().tooltip(ChartOption.Tooltip.SHADOW).legend().grid(60, 20, 40, 60)
                .categoriesAcross(keys, 6).valuesUp(unit, null);
    }
}
