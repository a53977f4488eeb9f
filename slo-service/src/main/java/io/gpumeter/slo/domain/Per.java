package io.gpumeter.slo.domain;

import java.util.Locale;

/** The event a latency objective counts: each minute (its percentile under the threshold) or each request. */
public enum Per {
    MINUTE,
    REQUEST;

    /**
     * The unit named exactly (case-insensitive).
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static Per parse(String value) {
        if (value != null) {
            for (Per p : values()) {
                if (p.name().equals(value.strip().toUpperCase(Locale.ROOT))) {
                    return p;
                }
            }
        }
        throw new IllegalArgumentException("must be MINUTE or REQUEST, got '" + value + "'");
    }
}
