package io.gpumeter.billing.rest;

import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.service.BudgetService;
import io.gpumeter.billing.service.CostAnomalyService;
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
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.List;

/** What alert-service watches: every budget's forecast, and the tenants whose cost jumped on the latest day. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class CostWatchResource {

    private final BudgetService budgets;
    private final CostAnomalyService anomalies;
    private final ZoneId zone;

    private final Clock clock;

    public CostWatchResource(BudgetService budgets, CostAnomalyService anomalies,
                             BillingConfig config, Clock clock) {
        this.clock = clock;
        this.budgets = budgets;
        this.anomalies = anomalies;
        this.zone = config.zone();
    }

    @GET
    @Path("/budget-forecasts")
    @Operation(summary = "The month's forecast of every tenant that has a budget (month defaults to the one at 'at')")
    public List<BudgetService.Forecast> forecasts(@QueryParam("month") String month, @QueryParam("at") String at) {
        Instant asOf = Params.instantOr("at", at, clock.instant());
        YearMonth yearMonth;
        try {
            yearMonth = month == null || month.isEmpty() ? YearMonth.from(asOf.atZone(zone)) : BillingPeriod.parseMonth(month);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badRequest("month", e.getMessage());
        }
        return budgets.forecasts(yearMonth, asOf);
    }

    @GET
    @Path("/cost-anomalies")
    @Operation(summary = "Each tenant's allocated cost on one day against its trailing days' mean and deviation")
    public CostAnomalyService.Report anomalies(@QueryParam("day") String day, @QueryParam("at") String at) {
        Instant now = clock.instant();
        if (day != null && !day.isEmpty()) {
            if (at != null && !at.isEmpty()) {
                throw ApiProblem.badRequest("day", "give day or at, not both");
            }
            return anomalies.judge(Params.day("day", day), now);
        }
        return anomalies.judge(anomalies.lastWholeDay(Params.instantOr("at", at, now)), now);
    }
}
