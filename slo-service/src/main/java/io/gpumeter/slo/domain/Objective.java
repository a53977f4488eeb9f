package io.gpumeter.slo.domain;

import java.math.BigDecimal;

/**
 * A latency objective: per MINUTE, a minute is good when its {@code percentile} is at or under
 * {@code thresholdMs}; per REQUEST, a request is good when its latency is at or under {@code thresholdMs}
 * and the percentile only names the intent.
 */
public record Objective(BigDecimal percentile, BigDecimal thresholdMs, Per per) {
}
