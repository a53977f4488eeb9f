package io.gpumeter.slo.service;

import java.math.BigDecimal;
import java.util.Map;

/**
 * An SLO as clients send and read it: {@code {"name", "selector": {"service"}, "sli", "objective":
 * {"percentile", "thresholdMs", "per"}, "target", "window"}}.
 */
public record SloRequest(String name, Selector selector, String sli, ObjectiveBody objective, BigDecimal target,
                         String window) {

    /** Whose requests count. */
    public record Selector(String service, String tenant, Map<String, String> labels) {
    }

    /** A latency objective; absent for AVAILABILITY. */
    public record ObjectiveBody(BigDecimal percentile, BigDecimal thresholdMs, String per) {
    }
}
