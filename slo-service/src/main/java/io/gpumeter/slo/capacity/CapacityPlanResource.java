package io.gpumeter.slo.capacity;

import io.gpumeter.common.problem.Params;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.time.Clock;
import java.time.Instant;

/** The capacity plan (Q10): per GPU model and demand shape, the commitment at the SLO with its margins and the gap. */
@Path("/api/v1/capacity/plan")
@Produces(MediaType.APPLICATION_JSON)
public class CapacityPlanResource {

    static final int MAX_HORIZON_DAYS = 90;

    private final CapacityPlanService plans;
    private final Clock clock;

    public CapacityPlanResource(CapacityPlanService plans, Clock clock) {
        this.plans = plans;
        this.clock = clock;
    }

    @GET
    @Operation(summary = "Per GPU model and demand shape: supply, the commitment at the SLO, three measured margins "
            + "stacked, the cards needed on the horizon's busiest day and the gap")
    public Uni<CapacityPlan> plan(@QueryParam("horizon") String horizon, @QueryParam("at") String at,
                                  @QueryParam("history") String history) {
        int horizonDays = Horizon.days("horizon", horizon == null || horizon.isEmpty() ? "30d" : horizon, 1, MAX_HORIZON_DAYS);
        int historyDays = Horizon.days("history", history == null || history.isEmpty() ? plans.defaultHistory() : history,
                CapacityPlanService.MIN_HISTORY_DAYS, CapacityPlanService.MAX_HISTORY_DAYS);
        Instant asOf = Params.instantOr("at", at, clock.instant());
        return plans.plan(asOf, horizonDays, historyDays);
    }
}
