package io.gpumeter.ledger.rest;

import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.service.ViolationService;
import io.gpumeter.ledger.violation.domain.Violation;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/** Soft, hard, bypass and drift episodes over [from, to), and the findings of the DRA derivation. */
@Path("/api/v1/violations")
public class ViolationResource {

    private final ViolationService violations;

    public ViolationResource(ViolationService violations) {
        this.violations = violations;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<List<Violation>> find(@QueryParam("from") String from, @QueryParam("to") String to) {
        return violations.find(Params.instant("from", from), Params.instant("to", to));
    }
}
