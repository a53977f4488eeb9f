package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.ledger.governance.service.GovernanceIngestService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** Where collectors deliver governance facts; answers once the batch and its derived books are committed. */
@Path("/api/v1/facts/governance")
public class GovernanceFactResource {

    private final GovernanceIngestService ingest;

    public GovernanceFactResource(GovernanceIngestService ingest) {
        this.ingest = ingest;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<IngestResult> deliver(GovernanceBatch batch) {
        return ingest.ingest(batch);
    }
}
