package io.gpumeter.alert.rest;

import io.gpumeter.alert.repository.ActionRepository;
import io.gpumeter.alert.repository.StoredAction;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.Params;
import io.gpumeter.common.problem.Window;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The audit of runbook actions taken in [from, to) (default: the last 24 hours): alert → action → result, and on
 * resolve when and what was undone, with the time the alert took to resolve.
 */
@Path("/api/v1/actions")
public class ActionResource {

    /** One action row as reported. */
    public record ActionView(long id, String alertFingerprint, String alertname, Instant startsAt, String action,
                             String mode, String target, String result, String detail, Instant at, Instant resolvedAt,
                             BigDecimal timeToResolveSeconds, String undoResult, String undoDetail, Instant undoneAt) {

        static ActionView of(StoredAction a) {
            BigDecimal ttr = a.resolvedAt() == null ? null
                    : BigDecimal.valueOf(Duration.between(a.startsAt(), a.resolvedAt()).toMillis(), 3).stripTrailingZeros();
            return new ActionView(a.id(), a.alertFingerprint(), a.alertname(), a.startsAt(), a.action(), a.mode(),
                    a.target(), a.result(), a.detail(), a.at(), a.resolvedAt(), ttr, a.undoResult(), a.undoDetail(),
                    a.undoneAt());
        }
    }

    private final ActionRepository actions;

    private final Clock clock;

    public ActionResource(ActionRepository actions, Clock clock) {
        this.clock = clock;
        this.actions = actions;
    }

    /** The actions of [from, to), oldest first; the query cuts the page {@code limit} and {@code offset} ask for. */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<List<ActionView>> between(@QueryParam("from") String from, @QueryParam("to") String to,
                                         @QueryParam("limit") String limit, @QueryParam("offset") String offset) {
        Instant now = clock.instant();
        Instant end = Params.instantOr("to", to, now.plusSeconds(1));
        Instant start = Params.instantOr("from", from, end.minus(Duration.ofHours(24)));
        TimeWindow window = Params.window(start, end);
        return actions.between(window.start(), window.end(), Window.of(limit, offset)).map(page -> page.map(ActionView::of));
    }
}
