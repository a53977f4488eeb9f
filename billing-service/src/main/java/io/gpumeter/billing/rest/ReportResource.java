package io.gpumeter.billing.rest;

import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.MonthlyReport;
import io.gpumeter.billing.domain.ReportFormat;
import io.gpumeter.billing.service.ReportCsvWriter;
import io.gpumeter.billing.service.ReportJsonWriter;
import io.gpumeter.billing.service.ReportService;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import java.time.YearMonth;
import java.util.function.Function;

/**
 * Monthly allocated-cost reports (chargeback) per tenant, team, project or namespace.
 */
@Path("/api/v1/reports")
public class ReportResource {

    static final String TEXT_CSV = "text/csv; charset=UTF-8";

    private final ReportService reports;

    public ReportResource(ReportService reports) {
        this.reports = reports;
    }

    @GET
    @Path("/monthly")
    @Operation(summary = "Allocated normalized GPU-hours and their cost for one month, one row per group")
    public Response monthly(
            @Parameter(description = "calendar month, YYYY-MM", example = "2026-03")
            @QueryParam("month") String month,
            @Parameter(description = "csv or json") @QueryParam("format") @DefaultValue("csv") String format,
            @Parameter(description = "tenant, team, project or namespace")
            @QueryParam("groupBy") @DefaultValue("tenant") String groupBy) {
        YearMonth yearMonth = parse("month", month, BillingPeriod::parseMonth);
        ReportFormat reportFormat = parse("format", format, ReportFormat::parse);
        GroupBy dimension = parse("groupBy", groupBy, GroupBy::parse);

        MonthlyReport report = reports.monthly(yearMonth, dimension);
        return switch (reportFormat) {
            case CSV -> Response.ok(ReportCsvWriter.write(report), TEXT_CSV)
                    .header(HttpHeaders.CONTENT_DISPOSITION,
                            "attachment; filename=\"" + report.fileName(reportFormat) + "\"")
                    .build();
            case JSON -> Response.ok(ReportJsonWriter.write(report), MediaType.APPLICATION_JSON).build();
        };
    }

    private static <T> T parse(String field, String text, Function<String, T> parser) {
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badRequest(field, e.getMessage());
        }
    }
}
