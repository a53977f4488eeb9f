package io.gpumeter.billing.rest;

import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.ReportScope;
import io.gpumeter.billing.domain.TimeBucket;
import io.gpumeter.billing.service.CostSeriesService;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import java.time.YearMonth;

/** A month's hours and cost per day or week and group: the month's report drawn over time. */
@Path("/api/v1/reports/series")
public class CostSeriesResource {

    private final CostSeriesService series;

    public CostSeriesResource(CostSeriesService series) {
        this.series = series;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Allocated, used and idle normalized GPU-hours and their cost per day, ISO week or month of "
            + "one month, per group; days and weeks between local midnights of the billing time zone")
    public CostSeriesService.Series series(
            @Parameter(description = "calendar month, YYYY-MM", example = "2026-03") @QueryParam("month") String month,
            @Parameter(description = "day, week (Monday first, cut at the month's edges) or month")
            @QueryParam("bucket") @DefaultValue("day") String bucket,
            @Parameter(description = "tenant, team, project or namespace")
            @QueryParam("groupBy") @DefaultValue("tenant") String groupBy,
            @Parameter(description = "only this tenant's rows") @QueryParam("tenant") String tenant) {
        YearMonth yearMonth = parse("month", () -> BillingPeriod.parseMonth(month));
        TimeBucket unit = TimeBucket.parse(bucket);
        GroupBy dimension = GroupBy.parse(groupBy);
        ReportScope scope = ReportScope.parse(tenant);
        return series.series(yearMonth, unit, dimension, scope);
    }

    private static <T> T parse(String field, java.util.function.Supplier<T> parser) {
        try {
            return parser.get();
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badRequest(field, e.getMessage());
        }
    }
}
