package io.gpumeter.alert.domain;

import java.time.Instant;

/** One evaluation window of an SLO's latency: [start, end) and its p99 in milliseconds. */
public record LatencyWindow(Instant start, Instant end, double p99Ms) {
}
