package io.gpumeter.slo.rest;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.slo.service.EngineGaugeService;
import io.gpumeter.slo.service.LatencyService;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** Inference engines' cache gauges (KV-cache usage, prefix-cache hit rate): the NDJSON intake and the curves. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class EngineGaugeResource {

    private final EngineGaugeService gauges;

    public EngineGaugeResource(EngineGaugeService gauges) {
        this.gauges = gauges;
    }

    @POST
    @Blocking
    @Path("/ingest/engine-gauges")
    @Consumes({"application/x-ndjson", "application/jsonl", MediaType.TEXT_PLAIN})
    @Operation(summary = "Store engine gauge readings, one JSON object a line; a bad line stores nothing")
    public Uni<LatencyService.IngestResult> ingest(String body) {
        // parsing a large body is CPU work that must stay off the event loop
        return gauges.ingest(body);
    }

    @GET
    @Path("/engine-gauges")
    @Operation(summary = "A service's KV-cache usage and prefix-cache hit rate per minute in [from, to), and each"
            + " pod's; without namespace, the only namespace that reported the service (else a 400 naming namespace)")
    public Uni<EngineGaugeService.GaugeReport> curve(@QueryParam("service") String service,
                                                     @QueryParam("namespace") String namespace,
                                                     @QueryParam("from") String from, @QueryParam("to") String to) {
        if (service == null || service.isBlank()) {
            throw ApiProblem.badRequest("service", "service is required");
        }
        return gauges.report(service.strip(), namespace, Params.window(from, to));
    }
}
