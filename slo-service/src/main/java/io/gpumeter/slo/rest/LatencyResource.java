package io.gpumeter.slo.rest;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.slo.domain.Sli;
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

/** Request latency: the NDJSON push path and the percentiles of a window. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class LatencyResource {

    private final LatencyService latency;

    public LatencyResource(LatencyService latency) {
        this.latency = latency;
    }

    @POST
    @Blocking
    @Path("/ingest/latency")
    @Consumes({"application/x-ndjson", "application/jsonl", MediaType.TEXT_PLAIN})
    @Operation(summary = "Store request records, one JSON object a line; a bad line stores nothing")
    public Uni<LatencyService.IngestResult> ingest(String body) {
        // parsing a large body is CPU work that must stay off the event loop
        return latency.ingest(body);
    }

    @GET
    @Path("/latency")
    @Operation(summary = "p50/p95/p99 and max of a service's requests in [from, to), and their per-minute curve;"
            + " without namespace, the only namespace that reported the service (else a 400 naming namespace)")
    public Uni<LatencyService.LatencyReport> latency(@QueryParam("service") String service,
                                                     @QueryParam("namespace") String namespace,
                                                     @QueryParam("from") String from, @QueryParam("to") String to,
                                                     @QueryParam("sli") String sli) {
        if (service == null || service.isBlank()) {
            throw ApiProblem.badRequest("service", "service is required");
        }
        TimeWindow window = Params.window(from, to);
        return latency.report(service.strip(), namespace, Sli.parse(sli), window);
    }
}
