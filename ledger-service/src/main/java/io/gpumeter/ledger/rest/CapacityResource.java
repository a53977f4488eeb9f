package io.gpumeter.ledger.rest;

import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.service.CapacityService;
import io.gpumeter.ledger.service.GpuHoursService;
import io.gpumeter.ledger.service.SupplyService;
import io.gpumeter.ledger.supply.domain.Supply;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import java.util.List;

/**
 * Fleet capacity: the card-hours the GPU inventory could supply over [from, to), per model, node or cluster; and the
 * supply a capacity plan reads, per model.
 */
@Path("/api/v1/capacity")
public class CapacityResource {

    private final CapacityService capacity;
    private final SupplyService supply;

    public CapacityResource(CapacityService capacity, SupplyService supply) {
        this.capacity = capacity;
        this.supply = supply;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Card-hours the inventory could supply over [from, to), counted up to now")
    public Uni<List<CapacityService.CardHours>> capacity(@QueryParam("from") String from, @QueryParam("to") String to,
                                                         @QueryParam("groupBy") String groupBy,
                                                         @QueryParam("cluster") String cluster,
                                                         @Parameter(description = "time zone of the day, week and month seams "
                                                                 + "(IANA name), UTC by default", example = "Europe/Berlin")
                                                         @QueryParam("timeZone") String timeZone) {
        return capacity.capacity(Params.instant("from", from), Params.instant("to", to), groupBy, cluster,
                GpuHoursService.zone(timeZone));
    }

    @GET
    @Path("/supply")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The supply a capacity plan reads: per GPU model, card-hours per local day with the cordoned, "
            + "failed and usable ones, the inventory and its request shapes at the window's end, failures and maintenance")
    public Uni<Supply> supply(@QueryParam("from") String from, @QueryParam("to") String to,
                              @Parameter(description = "time zone of the days (IANA name), UTC by default",
                                      example = "Europe/Berlin") @QueryParam("timeZone") String timeZone,
                              @QueryParam("cluster") String cluster) {
        return supply.supply(Params.instant("from", from), Params.instant("to", to), timeZone, cluster);
    }
}
