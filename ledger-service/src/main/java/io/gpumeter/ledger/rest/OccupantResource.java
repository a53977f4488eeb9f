package io.gpumeter.ledger.rest;

import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.domain.Occupant;
import io.gpumeter.ledger.service.OccupancyService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.List;

/** Q1: the occupants of a GPU or of a node at an instant (default now). */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class OccupantResource {

    private final OccupancyService occupancy;

    public OccupantResource(OccupancyService occupancy) {
        this.occupancy = occupancy;
    }

    @GET
    @Path("/gpus/{uuid}/occupants")
    public Uni<List<Occupant>> ofGpu(@PathParam("uuid") String uuid, @QueryParam("at") String at,
                                     @QueryParam("tenant") String tenant) {
        return occupancy.ofGpu(uuid, Params.instantOr("at", at, Instant.now()), Params.optional(tenant));
    }

    @GET
    @Path("/nodes/{node}/occupants")
    public Uni<List<Occupant>> ofNode(@PathParam("node") String node, @QueryParam("at") String at,
                                      @QueryParam("cluster") String cluster, @QueryParam("tenant") String tenant) {
        return occupancy.ofNode(cluster, node, Params.instantOr("at", at, Instant.now()), Params.optional(tenant));
    }
}
