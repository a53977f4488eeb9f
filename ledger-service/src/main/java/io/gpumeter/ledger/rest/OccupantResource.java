package io.gpumeter.ledger.rest;

import io.gpumeter.common.problem.ApiProblem;
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

import java.time.Clock;
import java.util.List;

/** Q1: the occupants of a GPU or of a node at an instant (default now), and the reverse: what a pod held. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class OccupantResource {

    private final OccupancyService occupancy;

    private final Clock clock;

    public OccupantResource(OccupancyService occupancy, Clock clock) {
        this.clock = clock;
        this.occupancy = occupancy;
    }

    @GET
    @Path("/gpus/{uuid}/occupants")
    public Uni<List<Occupant>> ofGpu(@PathParam("uuid") String uuid, @QueryParam("at") String at,
                                     @QueryParam("tenant") String tenant) {
        return occupancy.ofGpu(uuid, Params.instantOr("at", at, clock.instant()), Params.optional(tenant));
    }

    @GET
    @Path("/nodes/{node}/occupants")
    public Uni<List<Occupant>> ofNode(@PathParam("node") String node, @QueryParam("at") String at,
                                      @QueryParam("cluster") String cluster, @QueryParam("tenant") String tenant) {
        return occupancy.ofNode(cluster, node, Params.instantOr("at", at, clock.instant()), Params.optional(tenant));
    }

    /** The GPUs and units a pod held at an instant: the same rows as Q1, looked up from the pod's side. */
    @GET
    @Path("/occupants")
    public Uni<List<Occupant>> ofPod(@QueryParam("namespace") String namespace, @QueryParam("pod") String pod,
                                     @QueryParam("at") String at, @QueryParam("cluster") String cluster,
                                     @QueryParam("tenant") String tenant) {
        String ns = required("namespace", namespace);
        String name = required("pod", pod);
        return occupancy.ofPod(Params.optional(cluster), ns, name, Params.instantOr("at", at, clock.instant()),
                Params.optional(tenant));
    }

    private static String required(String field, String value) {
        if (value == null || value.isBlank()) {
            throw ApiProblem.badRequest(field, field + " is required");
        }
        return value.trim();
    }
}
