package io.gpumeter.ledger.rest;

import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.domain.GpuHours;
import io.gpumeter.ledger.service.GpuHoursService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/** Allocated normalized GPU-hours over [from, to), grouped by one or more dimensions. */
@Path("/api/v1/gpu-hours")
public class GpuHoursResource {

    private final GpuHoursService hours;

    public GpuHoursResource(GpuHoursService hours) {
        this.hours = hours;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<List<GpuHours>> allocated(@QueryParam("from") String from, @QueryParam("to") String to,
                                         @QueryParam("groupBy") String groupBy,
                                         @QueryParam("tenant") String tenant) {
        return hours.allocated(Params.instant("from", from), Params.instant("to", to), groupBy, Params.optional(tenant));
    }
}
