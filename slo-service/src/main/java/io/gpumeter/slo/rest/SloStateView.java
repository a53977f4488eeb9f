package io.gpumeter.slo.rest;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import io.gpumeter.slo.service.LatencyService;

/**
 * One SLO with its status and, for a latency SLO that names a service, that service's latency over the window asked
 * (null otherwise), as {@code GET /api/v1/slos/{name}/status} and {@code GET /api/v1/latency} answer them, and on request
 * its error budget left at instants across the window (its burn-down).
 */
public record SloStateView(SloView slo, SloStatusView status, LatencyService.LatencyReport latency,
                           List<BudgetLeft> budgetLeft) {

    /** The share of the error budget left as of an instant; null {@code budgetLeft} when no points were asked. */
    public record BudgetLeft(Instant at, BigDecimal remaining) {
    }
}
