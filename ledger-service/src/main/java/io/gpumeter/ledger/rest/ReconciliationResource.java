package io.gpumeter.ledger.rest;

import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.hours.domain.Reconciliation;
import io.gpumeter.ledger.service.ReconciliationService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/** Requested, allocated and used GPU-hours side by side per group over [from, to). */
@Path("/api/v1/reconciliation")
public class ReconciliationResource {

    private final ReconciliationService reconciliation;

    public ReconciliationResource(ReconciliationService reconciliation) {
        this.reconciliation = reconciliation;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<List<Reconciliation>> reconcile(@QueryParam("from") String from, @QueryParam("to") String to,
                                               @QueryParam("groupBy") String groupBy) {
        return reconciliation.reconcile(Params.instant("from", from), Params.instant("to", to), groupBy);
    }
}
