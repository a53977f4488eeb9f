package io.gpumeter.alert.domain;

import java.util.List;

/**
 * What slo-service reports for one SLO: what it measures and for whom, its latency line, whether its fast-burn
 * condition (14.4× over 1 h and 5 m) holds, and its recent latency windows, oldest first.
 */
public record SloState(String name, String sli, String service, String namespace, String tenant, Double thresholdMs,
                       boolean fastBurn, Double burnRate, List<LatencyWindow> windows) {

    public SloState {
        windows = windows == null ? List.of() : List.copyOf(windows);
    }
}
