package io.gpumeter.slo.efficiency;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** An inference service's energy efficiency: generated tokens per joule over a window. */
@Path("/api/v1/efficiency")
@Produces(MediaType.APPLICATION_JSON)
public class EfficiencyResource {

    private final EfficiencyService efficiency;

    public EfficiencyResource(EfficiencyService efficiency) {
        this.efficiency = efficiency;
    }

    @GET
    @Operation(summary = "A service's generated tokens per joule in [from, to): its pods' vLLM token counters over the"
            + " energy the ledger split to their units; null with the reason where either is missing, never 0;"
            + " without namespace, the only namespace that reported the service (else a 400 naming namespace)")
    public Uni<EfficiencyService.Report> tokensPerJoule(@QueryParam("service") String service,
                                                        @QueryParam("namespace") String namespace,
                                                        @QueryParam("from") String from, @QueryParam("to") String to) {
        if (service == null || service.isBlank()) {
            throw ApiProblem.badRequest("service", "service is required");
        }
        return efficiency.report(service.strip(), namespace, Params.window(from, to));
    }
}
