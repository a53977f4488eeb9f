package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.governance.domain.QueueWaitRow;
import io.gpumeter.ledger.governance.service.QueueWaitService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Clock;
import java.util.List;

/** Checklist 3: queue wait p50/p95/p99 (nearest rank) of what was admitted in [from, to), and what waits now. */
@Path("/api/v1/queue-wait")
@Produces(MediaType.APPLICATION_JSON)
public class QueueWaitResource {

    private final QueueWaitService waits;

    private final Clock clock;

    public QueueWaitResource(QueueWaitService waits, Clock clock) {
        this.clock = clock;
        this.waits = waits;
    }

    @GET
    public Uni<List<QueueWaitRow>> distribution(@QueryParam("from") String from, @QueryParam("to") String to,
                                                @QueryParam("groupBy") String groupBy, @QueryParam("cluster") String cluster) {
        return waits.distribution(Params.instant("from", from), Params.instant("to", to), groupBy, cluster);
    }

    @GET
    @Path("/pending")
    public Uni<List<QueueWaitService.Pending>> pending(@QueryParam("cluster") String cluster, @QueryParam("at") String at) {
        return waits.pending(cluster, Params.instantOr("at", at, clock.instant()));
    }
}
