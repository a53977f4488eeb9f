package io.gpumeter.billing.domain;

import java.util.Locale;

/**
 * How a report is rendered: CSV for spreadsheets and FinOps tools, JSON for programs.
 */
public enum ReportFormat {
    CSV, JSON;

    /** @throws IllegalArgumentException naming the accepted values */
    public static ReportFormat parse(String text) {
        for (ReportFormat f : values()) {
            if (text != null && f.name().equalsIgnoreCase(text.strip())) {
                return f;
            }
        }
        throw new IllegalArgumentException("format must be csv or json, got '" + text + "'");
    }

    public String extension() {
        return name().toLowerCase(Locale.ROOT);
    }
}
