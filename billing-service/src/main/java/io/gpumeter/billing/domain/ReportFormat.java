package io.gpumeter.billing.domain;

import java.util.Locale;

/**
 * How a report is rendered: CSV for spreadsheets, JSON for programs, FOCUS for FinOps tools that load several
 * cost sources into one table (CSV with the FinOps Open Cost and Usage Specification's columns, one row per
 * group and GPU model).
 */
public enum ReportFormat {
    CSV, JSON, FOCUS;

    /** @throws IllegalArgumentException naming the accepted values */
    public static ReportFormat parse(String text) {
        for (ReportFormat f : values()) {
            if (text != null && f.name().equalsIgnoreCase(text.strip())) {
                return f;
            }
        }
        throw new IllegalArgumentException("format must be csv, json or focus, got '" + text + "'");
    }

    public String extension() {
        return this == JSON ? "json" : "csv";
    }

    /** Whether the rows are per group and GPU model rather than per group. */
    public boolean byModel() {
        return this == FOCUS;
    }

    /** Put before the grouping in file names, so a FOCUS file never passes for a native one. */
    String fileNamePrefix() {
        return this == FOCUS ? "focus-" : "";
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
