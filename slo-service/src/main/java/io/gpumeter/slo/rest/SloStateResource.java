package io.gpumeter.slo.rest;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.domain.SloDefinition;
import io.gpumeter.slo.service.ChangesBefore;
import io.gpumeter.slo.service.LatencyService;
import io.gpumeter.slo.service.SloChanges;
import io.gpumeter.slo.service.SloService;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Every SLO's state in one read: its definition, its status as of the window's end and its service's latency curve
 * over the window, so that a caller watching all SLOs needs one call rather than one per SLO.
 */
@Path("/api/v1/slo-states")
@Produces(MediaType.APPLICATION_JSON)
public class SloStateResource {

    private final SloService slos;
    private final LatencyService latency;
    private final SloChanges changes;
    private final SloConfig config;

    public SloStateResource(SloService slos, LatencyService latency, SloChanges changes, SloConfig config) {
        this.slos = slos;
        this.changes = changes;
        this.latency = latency;
        this.config = config;
    }

    @GET
    @Operation(summary = "Every SLO (or, with tenant=, those whose selector names that tenant) with its status as of to"
            + " and, for a latency SLO naming a service and without tenant=, the service's per-minute latency in"
            + " [from, to); without tenant=, a status whose burn-rate alert fires carries the changes of its pods' nodes"
            + " and clusters in the look-back before to (changesBefore)")
    public Uni<List<SloStateView>> states(@QueryParam("from") String from, @QueryParam("to") String to,
                                          @QueryParam("tenant") List<String> tenant,
                                          @Parameter(description = "the error budget left at this many instants evenly "
                                                  + "across [from, to], both included (2 to " + MAX_POINTS + "); none when absent")
                                          @QueryParam("budgetPoints") String budgetPoints) {
        TimeWindow window = Params.window(from, to);
        List<Instant> points = points(window, budgetPoints);
        if (window.duration().compareTo(config.latency().maxQueryWindow()) > 0) {
            throw ApiProblem.badRequest("to", "a window spans at most " + config.latency().maxQueryWindow()
                    + "; narrow from/to");
        }
        // a repeated parameter must hold for every value: an SLO names one tenant, so differing values match none
        List<String> named = tenant == null ? List.of() : tenant.stream().filter(t -> !t.isBlank()).distinct().toList();
        if (named.size() > 1) {
            return Uni.createFrom().item(List.of());
        }
        // a service's curve merges the pods of every tenant, and the change book spans every tenant's nodes (a tenant
        // token always names its tenant here), so a tenant's read carries neither
        boolean fleet = named.isEmpty();
        return (named.isEmpty() ? slos.list() : slos.listOfTenant(named.get(0)))
                // one SLO after the other: the evaluations share the service's database session
                .chain(all -> Multi.createFrom().iterable(all)
                        .onItem().transformToUniAndConcatenate(stored -> state(stored, window, fleet, points))
                        .collect().asList())
                .chain(read -> fleet ? withChanges(read) : Uni.createFrom().item(read.stream().map(Read::view).toList()));
    }

    /** One SLO's state and the status it was read from (null when it could not be evaluated). */
    private record Read(SloStateView view, SloService.Evaluated status) {
    }

    /** Every firing SLO of the read with what changed before it, from one placement read and one read of the book. */
    private Uni<List<SloStateView>> withChanges(List<Read> read) {
        List<SloService.Evaluated> evaluated = read.stream().map(Read::status).filter(e -> e != null).toList();
        return changes.of(evaluated).map(found -> read.stream().map(r -> {
            ChangesBefore.Found f = r.status() == null ? null : found.get(r.status().definition().name());
            SloStateView v = r.view();
            return f == null ? v : new SloStateView(v.slo(), v.status().with(f), v.latency(), v.budgetLeft(), v.problem());
        }).toList());
    }

    /** The most instants a burn-down is asked at: one read of events serves them all, but each is evaluated. */
    static final int MAX_POINTS = 50;

    private static List<Instant> points(TimeWindow window, String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        int n;
        try {
            n = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 2 || n > MAX_POINTS) {
            throw ApiProblem.badRequest("budgetPoints", "budgetPoints must be a whole number from 2 to " + MAX_POINTS
                    + ", got '" + text + "'");
        }
        Duration step = window.duration().dividedBy(n - 1);
        List<Instant> out = new ArrayList<>(n);
        for (int i = 0; i < n - 1; i++) {
            out.add(window.start().plus(step.multipliedBy(i)));
        }
        out.add(window.end());
        return out;
    }

    private static boolean unpinned(Throwable e) {
        return e instanceof ApiProblem p && "selector.namespace".equals(p.field());
    }

    private Uni<Read> state(SloService.Stored stored, TimeWindow window, boolean curves, List<Instant> points) {
        SloDefinition d = stored.definition();
        List<Instant> ats = new ArrayList<>(points);
        ats.add(window.end()); // the status as of to, from the same read
        return slos.evaluateAt(d, ats)
                .chain(evaluated -> {
                    // the curve of the service the status read: a legacy selector's comes pinned to its namespace
                    SloDefinition read = evaluated.get(0).definition();
                    Uni<LatencyService.LatencyReport> curve = curves && d.service() != null && d.sli().isLatency()
                            ? Uni.createFrom().deferred(() -> latency.report(read.service(), read.namespace(), d.sli(),
                            window))
                            : Uni.createFrom().nullItem();
                    SloService.Evaluated status = evaluated.get(evaluated.size() - 1);
                    return curve.map(report -> new Read(new SloStateView(SloView.of(stored),
                            SloStatusView.of(status), report, points.isEmpty() ? null
                            : IntStream.range(0, points.size()).mapToObj(i -> new SloStateView.BudgetLeft(points.get(i),
                                    evaluated.get(i).status().budgetRemaining())).toList(), null), status));
                })
                // one SLO that cannot be read (a legacy selector whose service several namespaces report) says so in
                // its own entry, and the others are answered
                .onFailure(SloStateResource::unpinned).recoverWithItem(e -> new Read(new SloStateView(SloView.of(stored),
                        null, null, null, SloStateView.Problem.of((ApiProblem) e)), null));
    }
}
