package io.gpumeter.slo.rest;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.common.problem.Window;
import io.gpumeter.slo.service.JitterChanges;
import io.gpumeter.slo.service.JitterService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.util.List;

/** Jitter events (p99 over k x an SLO's threshold) with their same-card neighbours, curves and suspects. */
@Path("/api/v1/jitter-events")
@Produces(MediaType.APPLICATION_JSON)
public class JitterEventResource {

    private final JitterService jitter;
    private final JitterChanges changes;

    public JitterEventResource(JitterService jitter, JitterChanges changes) {
        this.jitter = jitter;
        this.changes = changes;
    }

    @GET
    @Operation(summary = "Jitter events overlapping [from, to), of one service (in its namespace; without namespace,"
            + " the only namespace whose events of it overlap, else a 400 naming namespace) or all, by start; the query"
            + " cuts the page; each with the changes of its pods' nodes and clusters in the look-back before its start"
            + " (changesBefore; absent with changesBeforeNote when the ledger could not be read)")
    public Uni<List<JitterEventSummary>> list(@QueryParam("from") String from, @QueryParam("to") String to,
                                              @QueryParam("service") String service,
                                              @QueryParam("namespace") String namespace,
                                              @QueryParam("limit") String limit,
                                              @QueryParam("offset") String offset) {
        return jitter.list(Params.window(from, to), service == null || service.isBlank() ? null : service.strip(),
                        namespace, Window.of(limit, offset))
                // the page's changes in one placement read and one read of the change book
                .chain(page -> changes.of(page).map(before -> page.map(e -> JitterEventSummary.of(e, before.get(e.id())))));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One jitter event with its pods, GPUs, neighbours, curves and ranked suspects, and the changes"
            + " before it")
    public Uni<JitterEventView> get(@PathParam("id") String id) {
        long parsed;
        try {
            parsed = Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw ApiProblem.badRequest("id", "id must be a jitter event's number, got '" + id + "'");
        }
        return jitter.get(parsed).chain(event -> {
            if (event == null) {
                throw ApiProblem.notFound("id", "there is no jitter event " + parsed);
            }
            return changes.of(event).map(before -> JitterEventView.of(event, before));
        });
    }

    @POST
    @Path("/detections")
    @Operation(summary = "Detect jitter in the minutes starting in [from, to) now; running it again adds nothing")
    public Uni<JitterService.Detection> detect(@QueryParam("from") String from, @QueryParam("to") String to) {
        return jitter.detect(Params.window(from, to));
    }
}
