package io.gpumeter.slo.service;

import java.math.BigDecimal;
import java.util.Map;

/**
 * An SLO as clients send and read it: {@code {"name", "selector": {"service", "tenant", "namespace"}, "sli",
 * "objective": {"percentile", "thresholdMs", "per"}, "target", "window"}}.
 */
public record SloRequest(String name, Selector selector, String sli, ObjectiveBody objective, BigDecimal target,
                         String window) {

    /** Whose requests count; {@code labels} is refused. */
    public record Selector(String service, String tenant, String namespace, Map<String, String> labels) {
    }

    /** A latency objective; absent for AVAILABILITY. */
    public record ObjectiveBody(BigDecimal percentile, BigDecimal thresholdMs, String per) {
    }
}
