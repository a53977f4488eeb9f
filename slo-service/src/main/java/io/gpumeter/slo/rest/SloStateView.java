package io.gpumeter.slo.rest;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.slo.service.LatencyService;

/**
 * One SLO with its status and, for a latency SLO that names a service, that service's latency over the window asked
 * (null otherwise), as {@code GET /api/v1/slos/{name}/status} and {@code GET /api/v1/latency} answer them, and on request
 * its error budget left at instants across the window (its burn-down). An SLO that cannot be evaluated has no status
 * and says why in {@code problem} (a legacy service selector whose service several namespaces report).
 */
public record SloStateView(SloView slo, SloStatusView status, LatencyService.LatencyReport latency,
                           List<BudgetLeft> budgetLeft, @JsonInclude(JsonInclude.Include.NON_NULL) Problem problem) {

    /** Why an SLO has no status: the field to fix and what is wrong, as its own status read would answer. */
    public record Problem(int status, String field, String detail) {

        static Problem of(ApiProblem e) {
            return new Problem(e.status(), e.field(), e.getMessage());
        }
    }

    /** The share of the error budget left as of an instant; null {@code budgetLeft} when no points were asked. */
    public record BudgetLeft(Instant at, BigDecimal remaining) {
    }
}
