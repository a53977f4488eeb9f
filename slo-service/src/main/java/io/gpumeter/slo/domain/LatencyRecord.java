package io.gpumeter.slo.domain;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * One inference request as a pod reported it; a latency is null when the pod did not measure it.
 */
public record LatencyRecord(String service, String namespace, String pod, Instant ts,
                            Double ttftMs, Double itlMs, Double e2eMs, boolean ok) {

    /** The start of the minute the request belongs to. */
    public Instant minute() {
        return ts.truncatedTo(ChronoUnit.MINUTES);
    }

    /** The latency this SLI measures, or null (always null for availability). */
    public Double latencyMs(Sli sli) {
        return switch (sli) {
            case TTFT -> ttftMs;
            case ITL -> itlMs;
            case E2E -> e2eMs;
            case AVAILABILITY -> null;
        };
    }
}
