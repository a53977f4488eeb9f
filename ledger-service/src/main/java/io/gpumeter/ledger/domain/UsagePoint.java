package io.gpumeter.ledger.domain;

import java.time.Instant;

/** One minute of one usage series: the mean and maximum of its samples, and how many there were. */
public record UsagePoint(String scope, String scopeKey, String field, Instant minute, double mean, double max, int samples) {
}
