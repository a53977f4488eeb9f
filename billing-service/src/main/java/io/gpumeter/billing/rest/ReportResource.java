package io.gpumeter.billing.rest;

import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.CostReport;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.ReportFormat;
import io.gpumeter.billing.domain.ReportScope;
import io.gpumeter.billing.service.ReportBody;
import io.gpumeter.billing.service.ReportService;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import java.time.LocalDate;
import java.time.YearMonth;
import java.util.function.Function;

/**
 * Monthly and weekly cost reports (allocated chargeback, used and idle showback) per tenant, team, project or
 * namespace.
 */
@Path("/api/v1/reports")
public class ReportResource {

    /** Hex SHA-256 of the body, so a stored download can be checked against a fresh one. */
    static final String CONTENT_SHA256 = "X-Content-SHA256";

    private final ReportService reports;

    public ReportResource(ReportService reports) {
        this.reports = reports;
    }

    @GET
    @Path("/monthly")
    @Operation(summary = "Allocated, used and idle normalized GPU-hours and their cost for one month, one row per group")
    public Response monthly(
            @Parameter(description = "calendar month, YYYY-MM", example = "2026-03")
            @QueryParam("month") String month,
            @Parameter(description = "csv or json") @QueryParam("format") @DefaultValue("csv") String format,
            @Parameter(description = "tenant, team, project or namespace")
            @QueryParam("groupBy") @DefaultValue("tenant") String groupBy,
            @Parameter(description = "only this tenant's rows") @QueryParam("tenant") String tenant,
            @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch) {
        YearMonth yearMonth = parse("month", month, BillingPeriod::parseMonth);
        ReportFormat reportFormat = parse("format", format, ReportFormat::parse);
        GroupBy dimension = parse("groupBy", groupBy, GroupBy::parse);
        ReportScope scope = parse("tenant", tenant, ReportScope::parse);
        return respond(reports.monthly(yearMonth, dimension, scope), reportFormat, ifNoneMatch);
    }

    @GET
    @Path("/weekly")
    @Operation(summary = "Allocated, used and idle normalized GPU-hours and their cost for one ISO week")
    public Response weekly(
            @Parameter(description = "ISO week, YYYY-Www", example = "2026-W10") @QueryParam("week") String week,
            @Parameter(description = "csv or json") @QueryParam("format") @DefaultValue("csv") String format,
            @Parameter(description = "tenant, team, project or namespace")
            @QueryParam("groupBy") @DefaultValue("team") String groupBy,
            @Parameter(description = "only this tenant's rows") @QueryParam("tenant") String tenant,
            @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch) {
        LocalDate monday = parse("week", week, BillingPeriod::parseWeek);
        ReportFormat reportFormat = parse("format", format, ReportFormat::parse);
        GroupBy dimension = parse("groupBy", groupBy, GroupBy::parse);
        ReportScope scope = parse("tenant", tenant, ReportScope::parse);
        return respond(reports.weekly(monday, dimension, scope), reportFormat, ifNoneMatch);
    }

    private static Response respond(CostReport report, ReportFormat format, String ifNoneMatch) {
        ReportBody body = new ReportBody(report, format);
        String hash = body.sha256();
        String etag = "\"sha256-" + hash + "\"";
        if (etag.equals(ifNoneMatch)) {
            return Response.notModified().header(HttpHeaders.ETAG, etag).header(CONTENT_SHA256, hash).build();
        }
        StreamingOutput stream = body::writeTo;
        return Response.ok(stream, body.mediaType())
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"" + report.fileName(format) + "\"")
                .header(HttpHeaders.ETAG, etag)
                .header(CONTENT_SHA256, hash)
                .build();
    }

    private static <T> T parse(String field, String text, Function<String, T> parser) {
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badRequest(field, e.getMessage());
        }
    }
}
