package io.gpumeter.billing.rest;

import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.ReportScope;
import io.gpumeter.billing.service.WindowCosts;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import java.time.Duration;
import java.time.Instant;

/**
 * The cost of a window that is no month or week, e.g. the hours an acceptance run measured: slo-service reads it for
 * its verdicts' allocated, used and idle cost. billing-service never calls slo-service.
 */
@Path("/api/v1/costs")
@Produces(MediaType.APPLICATION_JSON)
public class WindowCostResource {

    /** As long as the ledger's GPU-hours answer: a window is priced from one read per rate-card stretch. */
    static final Duration LONGEST = Duration.ofDays(400);

    private final WindowCosts costs;

    public WindowCostResource(WindowCosts costs) {
        this.costs = costs;
    }

    @GET
    @Operation(summary = "Allocated, used and idle normalized GPU-hours and their cost over [from, to), one line per group and GPU model")
    public WindowCosts.Costs window(
            @Parameter(description = "start, RFC 3339", example = "2026-11-02T10:00:00Z") @QueryParam("from") String from,
            @Parameter(description = "end (exclusive), RFC 3339", example = "2026-11-02T12:00:00Z") @QueryParam("to") String to,
            @Parameter(description = "tenant, team, project or namespace")
            @QueryParam("groupBy") @DefaultValue("tenant") String groupBy,
            @Parameter(description = "only this tenant's lines") @QueryParam("tenant") String tenant) {
        Instant start = Params.instant("from", from);
        Instant end = Params.instant("to", to);
        if (!end.isAfter(start)) {
            throw ApiProblem.badRequest("to", "to must be after from");
        }
        if (Duration.between(start, end).compareTo(LONGEST) > 0) {
            throw ApiProblem.badRequest("to", "a window spans at most 400 days; narrow from/to");
        }
        GroupBy dimension = GroupBy.parse(groupBy);
        return costs.of(start, end, dimension, ReportScope.parse(tenant));
    }
}
