package io.gpumeter.slo.domain;

import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.problem.Params;

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
     * @throws InvalidInput naming the field {@code sli} and the accepted values
     */
    public static Sli parse(String value) {
        return Params.oneOfIgnoringCase("sli", value, values(), Enum::name);
    }
}
