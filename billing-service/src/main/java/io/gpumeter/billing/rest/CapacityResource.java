package io.gpumeter.billing.rest;

import io.gpumeter.billing.domain.Horizon;
import io.gpumeter.billing.service.CapacityPlan;
import io.gpumeter.billing.service.CapacityPlanService;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.time.Clock;
import java.time.Instant;

/** The capacity plan (Q10): per GPU model, demand trend, supply, forecast with its interval, and the gap. */
@Path("/api/v1/capacity")
@Produces(MediaType.APPLICATION_JSON)
public class CapacityResource {

    static final int MAX_HORIZON_DAYS = 90;

    private final CapacityPlanService plans;

    private final Clock clock;

    public CapacityResource(CapacityPlanService plans, Clock clock) {
        this.clock = clock;
        this.plans = plans;
    }

    @GET
    @Operation(summary = "Per GPU model: demand trend, supply less the margin, a forecast with its interval, the gap")
    public CapacityPlan plan(@QueryParam("horizon") String horizon, @QueryParam("at") String at,
                             @QueryParam("history") String history) {
        int horizonDays = days("horizon", horizon == null || horizon.isEmpty() ? "30d" : horizon, 1, MAX_HORIZON_DAYS);
        int historyDays = days("history", history == null || history.isEmpty() ? plans.defaultHistory() : history,
                CapacityPlanService.MIN_HISTORY_DAYS, CapacityPlanService.MAX_HISTORY_DAYS);
        Instant asOf = Params.instantOr("at", at, clock.instant());
        return plans.plan(asOf, horizonDays, historyDays);
    }

    private static int days(String field, String text, int min, int max) {
        try {
            return Horizon.days(field, text, min, max);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badRequest(field, e.getMessage());
        }
    }
}
