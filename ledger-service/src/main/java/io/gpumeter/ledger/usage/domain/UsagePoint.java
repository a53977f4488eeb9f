package io.gpumeter.ledger.usage.domain;

import java.time.Instant;

/**
 * One span of one usage series: the mean and maximum of its samples, and how many there were. A span is a minute
 * ({@code seconds} 60), or an hour (3600) where the minute retention has folded the minutes into hours; {@code minute}
 * is its start.
 */
public record UsagePoint(String scope, String scopeKey, String field, Instant minute, double mean, double max, int samples,
                         int seconds) {
}
