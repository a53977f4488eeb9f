package io.gpumeter.ledger.demand.rest;

import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.demand.domain.Demand;
import io.gpumeter.ledger.demand.service.DemandService;
import io.gpumeter.ledger.service.GpuHoursService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/** The demand side of the capacity plan: shapes of allocated demand and the models' governance peaks. */
@Path("/api/v1/demand")
public class DemandResource {

    private final DemandService demand;

    public DemandResource(DemandService demand) {
        this.demand = demand;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Allocated GPU-hours by model, workload class, request shape and service per day over [from, to), "
            + "and per model the queue-wait p95 peak and the pending GPUs' busiest hours")
    public Uni<Demand> demand(
            @Parameter(description = "start of the window, RFC 3339") @QueryParam("from") String from,
            @Parameter(description = "end of the window (excluded), RFC 3339; at most 400 days after from")
            @QueryParam("to") String to,
            @Parameter(description = "time zone of the days and hours (IANA name), UTC by default", example = "Europe/Berlin")
            @QueryParam("timeZone") String timeZone,
            @Parameter(description = "only this cluster; every cluster when absent") @QueryParam("cluster") String cluster) {
        return demand.demand(Params.instant("from", from), Params.instant("to", to), GpuHoursService.zone(timeZone),
                Params.optional(cluster));
    }
}
