package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.governance.service.GpuStackService.GpuStack;
import io.gpumeter.ledger.governance.service.GpuStackService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Clock;

/**
 * Data plane or control plane: what one node's GPU stack offered at an instant (now by default) — allocatable GPU
 * resources, cordon and taints, GPU labels, each component's images and its pod on the node, the driver versions
 * the data paths saw.
 */
@Path("/api/v1/nodes/{node}/gpu-stack")
@Produces(MediaType.APPLICATION_JSON)
public class GpuStackResource {

    private final GpuStackService stack;
    private final Clock clock;

    public GpuStackResource(GpuStackService stack, Clock clock) {
        this.stack = stack;
        this.clock = clock;
    }

    @GET
    public Uni<GpuStack> at(@PathParam("node") String node, @QueryParam("cluster") String cluster,
                            @QueryParam("at") String at) {
        ClusterName.require("cluster", cluster);
        return stack.at(cluster, node, Params.instantOr("at", at, clock.instant()));
    }
}
