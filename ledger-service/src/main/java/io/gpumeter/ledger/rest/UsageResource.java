package io.gpumeter.ledger.rest;

import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.ledger.service.UsageService;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Where collectors deliver usage samples; answers once they are committed to the minute rollups. The values
 * committed are counted ({@code gpumeter_ledger_usage_values_total}, outcome stored or duplicate): against the
 * collectors' accepted samples, the difference is what is still on its way — the intake's backlog.
 */
@Path("/api/v1/usage")
public class UsageResource {

    private final UsageService usage;
    private final Counter stored;
    private final Counter duplicates;

    public UsageResource(UsageService usage, MeterRegistry metrics) {
        this.usage = usage;
        this.stored = Counter.builder("gpumeter.ledger.usage.values").tag("outcome", "stored")
                .description("usage values committed to the rollups for the first time").register(metrics);
        this.duplicates = Counter.builder("gpumeter.ledger.usage.values").tag("outcome", "duplicate")
                .description("usage values already counted, committed as nothing").register(metrics);
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<UsageService.UsageResult> deliver(UsageBatch batch) {
        return usage.ingest(batch).invoke(result -> {
            stored.increment(result.accepted());
            duplicates.increment(result.duplicates());
        });
    }
}
