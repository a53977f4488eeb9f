package io.gpumeter.ledger.rest;

import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.idle.domain.IdleCauseThresholds;
import io.gpumeter.ledger.idle.domain.IdleReport;
import io.gpumeter.ledger.idle.domain.IdleSplit;
import io.gpumeter.ledger.service.IdleService;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** Q3: why utilization is low, per card, node, tenant or pod over [from, to), and why held cards were not busy. */
@RegisterForReflection(targets = {IdleReport.class, IdleReport.Row.class, IdleSplit.class, IdleCauseThresholds.class})
@Path("/api/v1/idle")
public class IdleResource {

    private final IdleService idle;

    public IdleResource(IdleService idle) {
        this.idle = idle;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<IdleReport> split(@QueryParam("from") String from, @QueryParam("to") String to,
                                 @QueryParam("groupBy") String groupBy, @QueryParam("cluster") String cluster) {
        return idle.split(Params.instant("from", from), Params.instant("to", to), groupBy, cluster);
    }
}
