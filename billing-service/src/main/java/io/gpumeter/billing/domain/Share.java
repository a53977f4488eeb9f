package io.gpumeter.billing.domain;

import java.util.Locale;

/**
 * Whether a report shares the fleet's unallocated capacity cost among its rows: not at all (it stands as its own
 * line), or in proportion to each row's allocated cost.
 */
public enum Share {
    NONE, PROPORTIONAL;

    /**
     * The share named by an optional {@code share} parameter; null (no reconciliation) when absent.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static Share parse(String text) {
        if (text == null) {
            return null;
        }
        for (Share s : values()) {
            if (s.name().equalsIgnoreCase(text.strip())) {
                return s;
            }
        }
        throw new IllegalArgumentException("share must be none or proportional, got '" + text + "'");
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
