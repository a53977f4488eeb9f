package io.gpumeter.ledger.rest;

import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.domain.UsagePoint;
import io.gpumeter.ledger.service.UsageService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
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
        Instant start = Params.instant("from", from);
        Instant end = Params.instant("to", to);
        if (!end.isAfter(start) || Duration.between(start, end).compareTo(MAX_WINDOW) > 0) {
            throw ApiProblem.badRequest("to", "to must be after from, by at most " + MAX_WINDOW.toDays() + " days");
        }
        return usage.series(uuid, field == null || field.isEmpty() ? null : field(field), start, end);
    }

    private static UsageField field(String text) {
        return Arrays.stream(UsageField.values()).filter(f -> f.name().equals(text)).findFirst()
                .orElseThrow(() -> ApiProblem.badRequest("field", "field must be one of " + Arrays.toString(UsageField.values())
                        + ", got '" + text + "'"));
    }
}
