package io.gpumeter.collector.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What slo-service did with a latency body.
 *
 * @param duplicate true when the same body was stored before, and nothing was added
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LatencyReceipt(int records, int stored, boolean duplicate) {
}
