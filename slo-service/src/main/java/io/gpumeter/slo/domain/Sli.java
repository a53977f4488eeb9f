package io.gpumeter.slo.domain;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What an SLO measures: one of the three latencies of an inference request, or whether it succeeded. */
public enum Sli {
    /** Time to first token. */
    TTFT,
    /** Inter-token latency. */
    ITL,
    /** End-to-end request latency. */
    E2E,
    /** Share of requests answered without error. */
    AVAILABILITY;

    /** A latency SLI has a histogram per minute; availability counts requests. */
    public boolean isLatency() {
        return this != AVAILABILITY;
    }

    /**
     * The SLI named exactly (case-insensitive).
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static Sli parse(String value) {
        if (value != null) {
            for (Sli s : values()) {
                if (s.name().equals(value.strip().toUpperCase(Locale.ROOT))) {
                    return s;
                }
            }
        }
        throw new IllegalArgumentException("must be one of " + Arrays.stream(values()).map(Enum::name)
                .collect(Collectors.joining(", ")) + ", got '" + value + "'");
    }
}
