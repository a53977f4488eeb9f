package io.gpumeter.slo.rest;

import io.gpumeter.slo.service.LatencyService;

/**
 * One SLO with its status and, for a latency SLO that names a service, that service's latency over the window asked
 * (null otherwise), as {@code GET /api/v1/slos/{name}/status} and {@code GET /api/v1/latency} answer them.
 */
public record SloStateView(SloView slo, SloStatusView status, LatencyService.LatencyReport latency) {
}
