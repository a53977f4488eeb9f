package io.gpumeter.ledger.rest;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.service.UsageService;
import io.gpumeter.ledger.usage.domain.CardUsage;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The usage curves of a set of cards in one read: what {@code GET /api/v1/gpus/{uuid}/usage} answers for each. The
 * set goes in a body, as a few hundred UUIDs do not fit a URL.
 */
@Path("/api/v1/usage/series")
public class CardUsageResource {

    /** The most cards one read names; a larger set is split by the caller. */
    static final int MAX_CARDS = 500;

    private final UsageService usage;

    public CardUsageResource(UsageService usage) {
        this.usage = usage;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Per-minute usage of each card named in gpus over [from, to) (at most " + MAX_CARDS
            + " cards and 7 days), optionally one field or several (fields); with step (e.g. PT5M) each series folded into"
            + " spans of it from from, each span's mean the mean of its samples")
    public Uni<List<CardUsage>> series(UsageSeriesRequest request) {
        if (request == null) {
            throw ApiProblem.badRequest("body", "a usage read is required: {\"from\",\"to\",\"gpus\":[\"GPU-...\"]}");
        }
        TimeWindow window = Params.window(Params.instant("from", request.from()), Params.instant("to", request.to()),
                GpuUsageResource.MAX_WINDOW);
        return usage.series(cards(request.gpus()), fields(request.field(), request.fields()), window.start(),
                window.end(), step(request.step()));
    }

    /** The fields asked for, one or several, each once; empty for every field. */
    static Set<UsageField> fields(String field, List<String> fields) {
        boolean one = Params.optional(field) != null;
        if (fields == null || fields.isEmpty()) {
            return one ? EnumSet.of(Params.oneOf("field", field, UsageField.class)) : EnumSet.noneOf(UsageField.class);
        }
        if (one) {
            throw ApiProblem.badRequest("fields", "give field or fields, not both");
        }
        Set<UsageField> out = EnumSet.noneOf(UsageField.class);
        for (int i = 0; i < fields.size(); i++) {
            if (Params.optional(fields.get(i)) == null) {
                throw ApiProblem.badRequest("fields[" + i + "]", "fields[" + i + "] must be a usage field such as SM_ACTIVE");
            }
            out.add(Params.oneOf("fields[" + i + "]", fields.get(i), UsageField.class));
        }
        return out;
    }

    /** Null for the stored spans; else whole minutes, at least one. */
    static Duration step(String text) {
        if (Params.optional(text) == null) {
            return null;
        }
        Duration step;
        try {
            step = Duration.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw ApiProblem.badRequest("step", "step must be an ISO-8601 duration such as PT5M or PT1H, got '" + text + "'");
        }
        if (step.compareTo(Duration.ofMinutes(1)) < 0 || step.toSeconds() % 60 != 0 || step.toNanosPart() != 0) {
            throw ApiProblem.badRequest("step", "step must be whole minutes, at least PT1M, got '" + text + "'");
        }
        return step;
    }

    /** The cards named, each once, in order: at least one, at most {@link #MAX_CARDS}, none blank. */
    static List<String> cards(List<String> gpus) {
        if (gpus == null || gpus.isEmpty()) {
            throw ApiProblem.badRequest("gpus", "gpus is required: at least one card UUID");
        }
        if (gpus.size() > MAX_CARDS) {
            throw ApiProblem.badRequest("gpus", "gpus may name at most " + MAX_CARDS + " cards, got " + gpus.size()
                    + "; split the set");
        }
        Set<String> uuids = new LinkedHashSet<>();
        for (int i = 0; i < gpus.size(); i++) {
            String uuid = gpus.get(i);
            if (uuid == null || uuid.isBlank()) {
                throw ApiProblem.badRequest("gpus[" + i + "]", "gpus[" + i + "] must be a card UUID");
            }
            uuids.add(uuid.strip());
        }
        return List.copyOf(uuids);
    }
}
