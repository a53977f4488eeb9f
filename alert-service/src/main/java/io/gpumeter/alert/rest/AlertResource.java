package io.gpumeter.alert.rest;

import io.gpumeter.alert.repository.EpisodeRepository;
import io.gpumeter.alert.repository.StoredEpisode;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.common.problem.Window;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The alerts alert-service raises itself (the generatorURL of each points here). */
@Path("/api/v1/alerts")
@Produces(MediaType.APPLICATION_JSON)
public class AlertResource {

    private final EpisodeRepository episodes;

    private final Clock clock;

    public AlertResource(EpisodeRepository episodes, Clock clock) {
        this.clock = clock;
        this.episodes = episodes;
    }

    /**
     * Firing alerts, and with state=all also those resolved since {@code since} (default: 24 hours ago); the query
     * cuts the page {@code limit} and {@code offset} ask for.
     */
    @GET
    public Uni<List<StoredEpisode>> list(@QueryParam("state") String state, @QueryParam("since") String since,
                                         @QueryParam("limit") String limit, @QueryParam("offset") String offset) {
        boolean firingOnly;
        if (state == null || state.isBlank() || state.equals("firing")) {
            firingOnly = true;
        } else if (state.equals("all")) {
            firingOnly = false;
        } else {
            throw ApiProblem.badRequest("state", "state must be firing or all, got '" + state + "'");
        }
        Instant from = Params.instantOr("since", since, clock.instant().minus(Duration.ofHours(24)));
        return episodes.recent(from, firingOnly, Window.of(limit, offset)).map(page -> page);
    }

    /** Every episode of one alert, newest first; the query cuts the page {@code limit} and {@code offset} ask for. */
    @GET
    @Path("/{fingerprint}")
    public Uni<List<StoredEpisode>> one(@PathParam("fingerprint") String fingerprint, @QueryParam("limit") String limit,
                                        @QueryParam("offset") String offset) {
        if (!fingerprint.matches("[0-9a-f]{16}")) {
            throw ApiProblem.badRequest("fingerprint", "fingerprint must be 16 lower-case hex digits");
        }
        return episodes.byFingerprint(fingerprint, Window.of(limit, offset)).map(page -> {
            // An alert with episodes exists whatever page is asked for; only one without any is unknown.
            if (page.total() == 0) {
                throw ApiProblem.notFound("fingerprint", "no alert with fingerprint " + fingerprint);
            }
            return page;
        });
    }
}
