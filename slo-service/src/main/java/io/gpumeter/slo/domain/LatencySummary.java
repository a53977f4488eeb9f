package io.gpumeter.slo.domain;

/**
 * Percentiles of a set of requests, in milliseconds; null when there were none.
 */
public record LatencySummary(long count, Double p50Ms, Double p95Ms, Double p99Ms, Double maxMs) {

    public static final LatencySummary EMPTY = new LatencySummary(0, null, null, null, null);
}
