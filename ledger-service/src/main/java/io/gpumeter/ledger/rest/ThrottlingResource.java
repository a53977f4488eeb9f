package io.gpumeter.ledger.rest;

import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.service.ThrottlingService;
import io.gpumeter.ledger.usage.domain.Throttling;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/** Power and heat: why a card's clocks were held down over [from, to). */
@RegisterForReflection(targets = {Throttling.class, Throttling.Reason.class, Throttling.Episode.class,
        Throttling.Violation.class})
@Path("/api/v1/gpus/{uuid}/throttling")
public class ThrottlingResource {

    private final ThrottlingService throttling;

    public ThrottlingResource(ThrottlingService throttling) {
        this.throttling = throttling;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Minutes and episodes per clocks-event reason, with the power and thermal violation counters")
    public Uni<Throttling> throttling(
            @PathParam("uuid") String uuid,
            @Parameter(description = "start of the window, RFC 3339") @QueryParam("from") String from,
            @Parameter(description = "end of the window (excluded), RFC 3339") @QueryParam("to") String to) {
        return throttling.throttling(uuid, Params.instant("from", from), Params.instant("to", to));
    }
}
