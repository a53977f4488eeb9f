package io.gpumeter.billing.rest;

import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.CostReport;
import io.gpumeter.billing.domain.FocusLabels;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.ReportFormat;
import io.gpumeter.billing.domain.Reconciliation;
import io.gpumeter.billing.domain.ReportScope;
import io.gpumeter.billing.domain.Share;
import io.gpumeter.billing.service.ReportBody;
import io.gpumeter.billing.service.MonthClose;
import io.gpumeter.billing.service.ReportService;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.core.UriBuilder;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
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
    private final MonthClose monthClose;
    private final FocusLabels focus;

    private final Clock clock;

    public ReportResource(ReportService reports, MonthClose monthClose, BillingConfig config, Clock clock) {
        this.clock = clock;
        this.reports = reports;
        this.monthClose = monthClose;
        this.focus = new FocusLabels(config.focus().providerName(), config.focus().billingAccountId(),
                config.focus().billingAccountName(), config.focus().serviceName());
    }

    @GET
    @Path("/monthly")
    @Operation(summary = "Allocated, used and idle normalized GPU-hours and their cost for one month, one row per group")
    public Response monthly(
            @Parameter(description = "calendar month, YYYY-MM", example = "2026-03")
            @QueryParam("month") String month,
            @Parameter(description = "csv, json or focus (FOCUS 1.1 columns, one row per group and GPU model)") @QueryParam("format") @DefaultValue("csv") String format,
            @Parameter(description = "tenant, team, project or namespace")
            @QueryParam("groupBy") @DefaultValue("tenant") String groupBy,
            @Parameter(description = "only this tenant's rows") @QueryParam("tenant") String tenant,
            @Parameter(description = SHARE) @QueryParam("share") String share,
            @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch) {
        YearMonth yearMonth = parse("month", month, BillingPeriod::parseMonth);
        Options o = Options.parse(format, groupBy, tenant, share);
        return respond(reports.monthly(yearMonth, o.groupBy(), o.scope(), o.format().byModel(), o.share()), o.format(),
                ifNoneMatch);
    }

    @GET
    @Path("/weekly")
    @Operation(summary = "Allocated, used and idle normalized GPU-hours and their cost for one ISO week")
    public Response weekly(
            @Parameter(description = "ISO week, YYYY-Www", example = "2026-W10") @QueryParam("week") String week,
            @Parameter(description = "csv, json or focus (FOCUS 1.1 columns, one row per group and GPU model)") @QueryParam("format") @DefaultValue("csv") String format,
            @Parameter(description = "tenant, team, project or namespace")
            @QueryParam("groupBy") @DefaultValue("team") String groupBy,
            @Parameter(description = "only this tenant's rows") @QueryParam("tenant") String tenant,
            @Parameter(description = SHARE) @QueryParam("share") String share,
            @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch) {
        LocalDate monday = parse("week", week, BillingPeriod::parseWeek);
        Options o = Options.parse(format, groupBy, tenant, share);
        return respond(reports.weekly(monday, o.groupBy(), o.scope(), o.format().byModel(), o.share()), o.format(),
                ifNoneMatch);
    }

    /** The options every report takes, each parsed strictly and named in the problem when wrong. */
    private record Options(ReportFormat format, GroupBy groupBy, ReportScope scope, Share share) {
        static Options parse(String format, String groupBy, String tenant, String share) {
            return new Options(ReportResource.parse("format", format, ReportFormat::parse),
                    ReportResource.parse("groupBy", groupBy, GroupBy::parse),
                    ReportScope.parse(tenant),
                    ReportResource.parse("share", share, Share::parse));
        }
    }

    static final String SHARE = "none or proportional: reconcile with fleet capacity (unallocated line, share and "
            + "total columns); absent: no reconciliation";

    /** The reconciliation statement of a period. */
    public record ReconciliationView(String period, String periodStart, String periodEnd, String groupBy,
                                     String share, String currency, BigDecimal capacityGpuHours,
                                     BigDecimal capacityCost, BigDecimal allocatedGpuHours, BigDecimal allocatedCost,
                                     BigDecimal unallocatedGpuHours, BigDecimal unallocatedCost,
                                     BigDecimal sharedCost, BigDecimal unsharedCost, BigDecimal adjustmentCost,
                                     BigDecimal printedTotalCost, boolean reconciles, String statement) {
        static ReconciliationView of(ReportService.Statement s) {
            Reconciliation r = s.reconciliation();
            return new ReconciliationView(s.period().label(), s.period().startText(), s.period().endText(),
                    s.groupBy().dimension(), r.share().label(), r.currency(), r.capacityGpuHours(), r.capacityCost(),
                    r.allocatedGpuHours(), r.allocatedCost(), r.unallocatedGpuHours(), r.unallocatedCost(),
                    r.sharedCost(), r.unsharedCost(), s.adjustmentCost(), s.printedTotal(), s.reconciles(),
                    r.statement());
        }
    }

    @GET
    @Path("/monthly/reconciliation")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "How a month's usage lines and its unallocated capacity add up to the fleet capacity cost")
    public ReconciliationView monthlyReconciliation(
            @Parameter(description = "calendar month, YYYY-MM", example = "2026-03") @QueryParam("month") String month,
            @Parameter(description = "tenant, team, project or namespace")
            @QueryParam("groupBy") @DefaultValue("tenant") String groupBy,
            @Parameter(description = "none or proportional") @QueryParam("share") @DefaultValue("none") String share) {
        YearMonth yearMonth = parse("month", month, BillingPeriod::parseMonth);
        GroupBy dimension = parse("groupBy", groupBy, GroupBy::parse);
        Share sharing = parse("share", share, Share::parse);
        return ReconciliationView.of(reports.monthlyStatement(yearMonth, dimension, sharing));
    }

    @GET
    @Path("/weekly/reconciliation")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "How an ISO week's usage lines and its unallocated capacity add up to the fleet capacity cost")
    public ReconciliationView weeklyReconciliation(
            @Parameter(description = "ISO week, YYYY-Www", example = "2026-W10") @QueryParam("week") String week,
            @Parameter(description = "tenant, team, project or namespace")
            @QueryParam("groupBy") @DefaultValue("team") String groupBy,
            @Parameter(description = "none or proportional") @QueryParam("share") @DefaultValue("none") String share) {
        LocalDate monday = parse("week", week, BillingPeriod::parseWeek);
        GroupBy dimension = parse("groupBy", groupBy, GroupBy::parse);
        Share sharing = parse("share", share, Share::parse);
        return ReconciliationView.of(reports.weeklyStatement(monday, dimension, sharing));
    }

    /** A closed month as the close answers it. */
    public record ClosedMonthView(String month, String periodStart, String periodEnd, String closedAt,
                                  String currency, List<String> rateCardVersions, String normalizationPolicy,
                                  String normalizationVersion, int usageLines, int adjustmentLines,
                                  int capacityLines, String csvSha256) {
    }

    @POST
    @Path("/monthly/{month}/close")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Freeze a month's bill: its report is served from the snapshot from then on, and later "
            + "ledger corrections appear as adjustment lines of the next open month")
    public Response close(
            @Parameter(description = "calendar month, YYYY-MM", example = "2026-03") @PathParam("month") String month) {
        YearMonth yearMonth = parse("month", month, BillingPeriod::parseMonth);
        MonthClose.Closing closing = monthClose.close(yearMonth, clock.instant());
        var closed = closing.month();
        ClosedMonthView view = new ClosedMonthView(closed.label(), closed.period().startText(),
                closed.period().endText(), closed.closedAt().toString(), closed.currency(),
                closed.stretches().stream().map(s -> s.card().version()).distinct().toList(),
                closed.normalization().policy(), closed.normalization().version(), closing.usageLines(),
                closing.adjustmentLines(), closing.capacityLines(), reports.closedCsvSha256(yearMonth));
        return Response.created(UriBuilder.fromPath("/api/v1/reports/monthly").queryParam("month", closed.label())
                        .build())
                .entity(view)
                .build();
    }

    private Response respond(CostReport report, ReportFormat format, String ifNoneMatch) {
        ReportBody body = new ReportBody(report, format, focus);
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
