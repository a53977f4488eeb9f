package io.gpumeter.ledger.rest;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.service.UsageService;
import io.gpumeter.ledger.usage.domain.UsagePoint;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Duration;
import java.util.List;

/** A card's usage curves per minute (Q2, and the resource curves around a jitter event). */
@Path("/api/v1/gpus/{uuid}/usage")
public class GpuUsageResource {

    /** A week of minutes per series is the most one request returns; longer windows page by time. */
    static final Duration MAX_WINDOW = Duration.ofDays(7);

    private final UsageService usage;

    public GpuUsageResource(UsageService usage) {
        this.usage = usage;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<List<UsagePoint>> series(@PathParam("uuid") String uuid, @QueryParam("from") String from,
                                        @QueryParam("to") String to, @QueryParam("field") String field) {
        TimeWindow window = Params.window(Params.instant("from", from), Params.instant("to", to), MAX_WINDOW);
        return usage.series(uuid, field == null || field.isEmpty() ? null : Params.oneOf("field", field, UsageField.class),
                window.start(), window.end());
    }
}
