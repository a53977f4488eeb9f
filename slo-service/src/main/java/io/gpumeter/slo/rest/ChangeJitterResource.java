package io.gpumeter.slo.rest;

import io.gpumeter.common.problem.Params;
import io.gpumeter.slo.service.JitterImpact;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The jitter side of a change's impact: the ledger's {@code GET /api/v1/changes/{id}/impact} compares failures, MTTR
 * and Xids before and after a change on the nodes it touched; this counts the jitter events there over the same
 * windows. A fleet read, as the ledger's is.
 */
@Path("/api/v1/changes")
@Produces(MediaType.APPLICATION_JSON)
public class ChangeJitterResource {

    private final JitterImpact impact;

    public ChangeJitterResource(JitterImpact impact) {
        this.impact = impact;
    }

    @GET
    @Path("/{id}/jitter-impact")
    @Operation(summary = "The jitter events that started on the nodes a change touched over [from, at) and [at, to) —"
            + " the ledger's impact windows: a bound not given mirrors the other, neither takes the ledger's default on"
            + " each side — each window with its events, bad minutes, services and the GPU-hours the ledger counts there")
    public Uni<JitterImpact.Impact> jitterImpact(@PathParam("id") String id, @QueryParam("from") String from,
                                                 @QueryParam("to") String to) {
        return impact.of(id, Params.instantOrNull("from", from), Params.instantOrNull("to", to));
    }
}
