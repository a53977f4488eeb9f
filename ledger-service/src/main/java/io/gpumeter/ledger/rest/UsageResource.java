package io.gpumeter.ledger.rest;

import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.ledger.service.UsageService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** Where collectors deliver usage samples; answers once they are committed to the minute rollups. */
@Path("/api/v1/usage")
public class UsageResource {

    private final UsageService usage;

    public UsageResource(UsageService usage) {
        this.usage = usage;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<UsageService.UsageResult> deliver(UsageBatch batch) {
        return usage.ingest(batch);
    }
}
