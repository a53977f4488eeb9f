package io.gpumeter.billing.rest;

import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.ReportScope;
import io.gpumeter.billing.repository.StoredBudget;
import io.gpumeter.billing.service.BudgetRequest;
import io.gpumeter.billing.service.BudgetService;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;

/**
 * Tenants' standing monthly budgets, and the forecast of a month's allocated cost against them.
 */
@Path("/api/v1/budgets")
@Produces(MediaType.APPLICATION_JSON)
public class BudgetResource {

    /** A budget as the API shows it. */
    public record BudgetView(String tenant, BigDecimal monthlyAmount, String currency, String updatedAt) {
        static BudgetView of(StoredBudget b) {
            return new BudgetView(b.tenant, b.monthlyAmount, b.currency, b.updatedAt.toString());
        }
    }

    private final BudgetService budgets;

    private final Clock clock;

    public BudgetResource(BudgetService budgets, Clock clock) {
        this.clock = clock;
        this.budgets = budgets;
    }

    @PUT
    @Path("/{tenant}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set a tenant's monthly budget (201 when new, 200 when replaced)")
    public Uni<Response> put(@PathParam("tenant") String tenant, BudgetRequest request) {
        String name = tenant(tenant);
        return budgets.put(name, request).map(saved -> (saved.created()
                        ? Response.created(UriBuilder.fromPath("/api/v1/budgets/{tenant}").build(name))
                        : Response.ok())
                .entity(BudgetView.of(saved.budget())).build());
    }

    @GET
    @Operation(summary = "Every tenant's budget, by tenant")
    public Uni<List<BudgetView>> list() {
        return budgets.list().map(all -> all.stream().map(BudgetView::of).toList());
    }

    @GET
    @Path("/{tenant}")
    public Uni<BudgetView> get(@PathParam("tenant") String tenant) {
        String name = tenant(tenant);
        return budgets.get(name).map(b -> {
            if (b == null) {
                throw ApiProblem.notFound("tenant", "tenant '" + name + "' has no budget");
            }
            return BudgetView.of(b);
        });
    }

    @DELETE
    @Path("/{tenant}")
    public Uni<Response> delete(@PathParam("tenant") String tenant) {
        String name = tenant(tenant);
        return budgets.delete(name).map(deleted -> {
            if (!deleted) {
                throw ApiProblem.notFound("tenant", "tenant '" + name + "' has no budget");
            }
            return Response.noContent().build();
        });
    }

    @GET
    @Path("/{tenant}/forecast")
    @Operation(summary = "A month's allocated cost so far, projected linearly to the month's end, against the budget")
    public BudgetService.Forecast forecast(@PathParam("tenant") String tenant, @QueryParam("month") String month,
                                           @QueryParam("at") String at) {
        String name = tenant(tenant);
        YearMonth yearMonth;
        try {
            yearMonth = BillingPeriod.parseMonth(month);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badRequest("month", e.getMessage());
        }
        Instant asOf = Params.instantOr("at", at, clock.instant());
        return budgets.forecast(name, yearMonth, asOf);
    }

    private static String tenant(String tenant) {
        return ReportScope.parse(tenant).tenant();
    }
}
