package io.gpumeter.alert.domain;

import java.util.Locale;

/** How urgently a person must look: critical pages, warning tickets, info only records. */
public enum Severity {
    CRITICAL, WARNING, INFO;

    /** The label value Alertmanager routes on. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static Severity parse(String text) {
        for (Severity s : values()) {
            if (text != null && s.label().equals(text.strip().toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new IllegalArgumentException("severity must be critical, warning or info, got '" + text + "'");
    }
}
