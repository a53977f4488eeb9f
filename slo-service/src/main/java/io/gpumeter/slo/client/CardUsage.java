package io.gpumeter.slo.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** One card's per-minute usage points, as the ledger's bulk usage read answers them. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CardUsage(String gpuUuid, List<UsagePoint> points) {
}
