package io.gpumeter.slo.rest;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.slo.domain.SloDefinition;
import io.gpumeter.slo.service.BreakdownService;
import io.gpumeter.slo.service.SloChanges;
import io.gpumeter.slo.service.SloRequest;
import io.gpumeter.slo.service.SloService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

/** Service level objectives: definitions, and each one's status. */
@Path("/api/v1/slos")
@Produces(MediaType.APPLICATION_JSON)
public class SloResource {

    private final SloService slos;
    private final BreakdownService breakdowns;

    private final SloChanges changes;
    private final Clock clock;

    public SloResource(SloService slos, BreakdownService breakdowns, SloChanges changes, Clock clock) {
        this.clock = clock;
        this.changes = changes;
        this.slos = slos;
        this.breakdowns = breakdowns;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Define an SLO (201 with Location; 409 when the name is taken); a service selector without"
            + " a namespace takes the only namespace that reported the service (else a 400 naming selector.namespace)")
    public Uni<Response> create(SloRequest request) {
        SloDefinition d = slos.validate(request, null);
        return slos.pin(d).chain(slos::create).map(saved -> Response.created(UriBuilder.fromPath("/api/v1/slos/{name}")
                .build(d.name())).entity(SloView.of(saved)).build());
    }

    @GET
    @Operation(summary = "Every SLO, or (tenant=) only those whose selector names that tenant exactly")
    public Uni<List<SloView>> list(@QueryParam("tenant") List<String> tenant) {
        // a repeated parameter must hold for every value: an SLO names one tenant, so differing values match none
        List<String> named = tenant == null ? List.of() : tenant.stream().filter(t -> !t.isBlank()).distinct().toList();
        if (named.size() > 1) {
            return Uni.createFrom().item(List.of());
        }
        return (named.isEmpty() ? slos.list() : slos.listOfTenant(named.get(0)))
                .map(all -> all.stream().map(SloView::of).toList());
    }

    @GET
    @Path("/rules")
    @Produces("application/yaml")
    @Operation(summary = "Every SLO as Prometheus recording and alerting rules (the workbook's burn-rate alerts)")
    public Uni<String> rules() {
        return slos.prometheusRules();
    }

    @GET
    @Path("/{name}")
    public Uni<SloView> get(@PathParam("name") String name) {
        return slos.get(name).map(s -> SloView.of(found(s, name)));
    }

    @PUT
    @Path("/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Replace an SLO's definition")
    public Uni<SloView> replace(@PathParam("name") String name, SloRequest request) {
        return slos.pin(slos.validate(request, name)).chain(slos::replace).map(s -> SloView.of(found(s, name)));
    }

    @DELETE
    @Path("/{name}")
    public Uni<Response> delete(@PathParam("name") String name) {
        return slos.delete(name).map(deleted -> {
            if (!deleted) {
                throw notFound(name);
            }
            return Response.noContent().build();
        });
    }

    @GET
    @Path("/{name}/status")
    @Operation(summary = "Attainment, error budget left and the workbook's multi-window burn-rate alerts, as of at"
            + " (default now), over whole minutes; while an alert fires, the changes of its pods' nodes and clusters"
            + " in the look-back before it (changesBefore; absent with changesBeforeNote when the ledger could not be read)")
    public Uni<SloStatusView> status(@PathParam("name") String name, @QueryParam("at") String at) {
        Instant asOf = Params.instantOr("at", at, clock.instant());
        // a fleet read (tenants read their SLOs through slo-states): a burning SLO says what changed before it
        return slos.status(name, asOf).chain(e -> changes.of(List.of(e))
                .map(found -> SloStatusView.of(e).with(found.get(e.definition().name()))));
    }

    @GET
    @Path("/{name}/breakdown")
    @Operation(summary = "The cards and nodes the SLO's minutes in [from, to) ran on, and which of them the bad"
            + " minutes ran on (ledger Q1 history)")
    public Uni<BreakdownView> breakdown(@PathParam("name") String name, @QueryParam("from") String from,
                                        @QueryParam("to") String to) {
        return breakdowns.breakdown(name, Params.window(from, to)).map(BreakdownView::of);
    }

    private static <T> T found(T value, String name) {
        if (value == null) {
            throw notFound(name);
        }
        return value;
    }

    private static ApiProblem notFound(String name) {
        return ApiProblem.notFound("name", "there is no SLO named '" + name + "'");
    }
}
