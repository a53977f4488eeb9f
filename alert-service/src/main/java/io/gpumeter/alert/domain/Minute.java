package io.gpumeter.alert.domain;

import java.time.Instant;

/** One minute of one usage series: the mean and the maximum of its samples. */
public record Minute(Instant at, double mean, double max) {
}
