package io.gpumeter.ledger.rest;

import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.hours.domain.GpuHours;
import io.gpumeter.ledger.service.GpuHoursService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import java.util.List;

/** Allocated normalized GPU-hours over [from, to), grouped by one or more dimensions, optionally per day, week or month. */
@Path("/api/v1/gpu-hours")
public class GpuHoursResource {

    private final GpuHoursService hours;

    public GpuHoursResource(GpuHoursService hours) {
        this.hours = hours;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Allocated, used and idle normalized GPU-hours over [from, to), one row per group")
    public Uni<List<GpuHours>> allocated(
            @Parameter(description = "start of the window, RFC 3339") @QueryParam("from") String from,
            @Parameter(description = "end of the window (excluded), RFC 3339") @QueryParam("to") String to,
            @Parameter(description = "comma-separated: tenant, team, project, namespace, cluster, model, node, owner, "
                    + "and at most one time bucket: day, week (Monday first, labelled 2026-W45) or month; a bucket "
                    + "splits hours exactly at its seams", example = "tenant,day")
            @QueryParam("groupBy") String groupBy,
            @Parameter(description = "only this tenant's rows") @QueryParam("tenant") String tenant,
            @Parameter(description = "time zone of the day, week and month seams (IANA name), UTC by default",
                    example = "Europe/Berlin")
            @QueryParam("timeZone") String timeZone) {
        return hours.allocated(Params.instant("from", from), Params.instant("to", to), groupBy, Params.optional(tenant),
                GpuHoursService.zone(timeZone));
    }
}
