package io.gpumeter.billing.domain;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The ownership dimension a report has one row per value of.
 */
public enum GroupBy {
    TENANT, TEAM, PROJECT, NAMESPACE;

    /** The dimension's name as the ledger and the report header spell it. */
    public String dimension() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static GroupBy parse(String text) {
        for (GroupBy g : values()) {
            if (text != null && g.dimension().equalsIgnoreCase(text.strip())) {
                return g;
            }
        }
        throw new IllegalArgumentException("groupBy must be one of " + accepted() + ", got '" + text + "'");
    }

    static String accepted() {
        return Arrays.stream(values()).map(GroupBy::dimension).collect(Collectors.joining(", "));
    }
}
