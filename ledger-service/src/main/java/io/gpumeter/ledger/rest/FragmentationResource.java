package io.gpumeter.ledger.rest;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.fragmentation.domain.FragmentationReport;
import io.gpumeter.ledger.fragmentation.domain.FragmentationSeries;
import io.gpumeter.ledger.service.FragmentationService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeParseException;

/** Checklist 6: fragmentation of free GPU memory and MIG slices at an instant (default now), or as a series. */
@Path("/api/v1/fragmentation")
@Produces(MediaType.APPLICATION_JSON)
public class FragmentationResource {

    private final FragmentationService fragmentation;

    private final Clock clock;

    public FragmentationResource(FragmentationService fragmentation, Clock clock) {
        this.clock = clock;
        this.fragmentation = fragmentation;
    }

    @GET
    public Uni<FragmentationReport> at(@QueryParam("at") String at, @QueryParam("shapes") String shapes,
                                       @QueryParam("groupBy") String groupBy, @QueryParam("cluster") String cluster) {
        return fragmentation.at(Params.instantOr("at", at, clock.instant()), shapes, groupBy, cluster);
    }

    @GET
    @Path("/series")
    public Uni<FragmentationSeries> series(@QueryParam("from") String from, @QueryParam("to") String to,
                                           @QueryParam("step") String step, @QueryParam("shapes") String shapes,
                                           @QueryParam("groupBy") String groupBy, @QueryParam("cluster") String cluster) {
        return fragmentation.series(Params.instant("from", from), Params.instant("to", to), step(step), shapes, groupBy, cluster);
    }

    private static Duration step(String text) {
        if (text == null || text.isEmpty()) {
            return Duration.ofHours(1);
        }
        try {
            return Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw ApiProblem.badRequest("step", "step must be an ISO-8601 duration such as PT1H or PT15M, got '" + text + "'");
        }
    }
}
