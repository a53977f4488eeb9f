package io.gpumeter.ledger.usage.domain;

import java.util.List;

/** One card's per-minute usage points over a window, as {@code GET /api/v1/gpus/{uuid}/usage} answers them. */
public record CardUsage(String gpuUuid, List<UsagePoint> points) {
}
