package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Page;
import io.gpumeter.common.problem.Params;
import io.gpumeter.common.problem.Window;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.domain.FailureRow;
import io.gpumeter.ledger.governance.domain.IncidentIds;
import io.gpumeter.ledger.governance.repository.IncidentRepository.StoredIncident;
import io.gpumeter.ledger.governance.rest.ChangeResource.ChangeView;
import io.gpumeter.ledger.governance.service.FailureService;
import io.gpumeter.ledger.governance.service.IncidentChanges;
import io.gpumeter.ledger.rest.HoldingsRequest;
import io.gpumeter.ledger.rest.PodRefs;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Q8 and checklist 5: failure counts, rates and MTTR by cause, root-cause class, node or tenant; the incidents. */
@Path("/api/v1/failures")
@Produces(MediaType.APPLICATION_JSON)
public class FailureResource {

    /** The most pods one pod incidents read names; a larger set is split by the caller. */
    static final int MAX_PODS = 2000;

    private final FailureService failures;
    private final IncidentChanges changes;

    public FailureResource(FailureService failures, IncidentChanges changes) {
        this.failures = failures;
        this.changes = changes;
    }

    /**
     * One incident as reported, with {@code changesBefore}: the changes of its node and the cluster-wide ones in the
     * look-back before its start, newest first, at most {@value IncidentChanges#MOST}.
     *
     * @param id stable when the incident is derived again ({@link IncidentIds}); {@code /incidents/{id}} answers it
     */
    public record IncidentView(String id, String cluster, String cause, String rootCauseClass, String scope, String node,
                               String gpuPci, String gpuUuid, String namespace, String pod, Instant startedAt,
                               Instant recoveredAt, Instant endedAt, BigDecimal repairSeconds, boolean open,
                               int occurrences, String evidence, List<ChangeView> changesBefore) {
    }

    @GET
    public Uni<List<FailureRow>> byGroup(@QueryParam("from") String from, @QueryParam("to") String to,
                                         @QueryParam("groupBy") String groupBy, @QueryParam("cluster") String cluster) {
        return failures.failures(Params.instant("from", from), Params.instant("to", to), groupBy, cluster);
    }

    /**
     * The incidents that started in [from, to); with {@code open=true} those neither recovered nor ended, however
     * long ago they started, and {@code from}/{@code to} become optional bounds on the start. The query cuts the page
     * {@code limit} and {@code offset} ask for.
     */
    @GET
    @Path("/incidents")
    public Uni<List<IncidentView>> incidents(@QueryParam("from") String from, @QueryParam("to") String to,
                                             @QueryParam("cause") String cause, @QueryParam("cluster") String cluster,
                                             @QueryParam("open") String open, @QueryParam("limit") String limit,
                                             @QueryParam("offset") String offset) {
        Window window = Window.of(limit, offset);
        Uni<Page<StoredIncident>> found = Params.flag("open", open)
                ? failures.openIncidents(Params.instantOrNull("from", from), Params.instantOrNull("to", to), cause, cluster,
                        window)
                : failures.incidents(Params.instant("from", from), Params.instant("to", to), cause, cluster, window);
        // the page's changes in one read of the change book
        return found.chain(page -> changes.before(page).map(before -> page.map(s -> view(s, before))));
    }

    /**
     * The incidents of a set of pods that started in [from, to), by start, each as {@link #incidents} answers it: what
     * a caller judging many pods' failures and recoveries (an acceptance cell's MTTR) needs, in one request.
     */
    @POST
    @Path("/pod-incidents")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<List<IncidentView>> podIncidents(HoldingsRequest request) {
        if (request == null) {
            throw ApiProblem.badRequest("body", "a pod incidents request is required: {\"from\",\"to\",\"pods\":"
                    + "[{\"namespace\",\"pod\"}]}");
        }
        Instant from = Params.instant("from", request.from());
        Instant to = Params.instant("to", request.to());
        return failures.incidentsOfPods(from, to, Params.optional(request.cluster()), PodRefs.keys(request.pods(), MAX_PODS))
                .chain(found -> changes.before(found).map(before -> found.stream().map(s -> view(s, before)).toList()));
    }

    /** One incident by its stable id, with its changes before; a 404 problem naming the id when there is none. */
    @GET
    @Path("/incidents/{id}")
    public Uni<IncidentView> incident(@PathParam("id") String id) {
        if (!IncidentIds.wellFormed(id)) {
            throw ApiProblem.notFound("id", "no incident has the id '" + id + "' (an id is " + IncidentIds.LENGTH
                    + " lower-case hex digits)");
        }
        return failures.incident(id).chain(found -> {
            if (found == null) {
                throw ApiProblem.notFound("id", "no incident has the id '" + id + "'");
            }
            return changes.before(List.of(found)).map(before -> view(found, before));
        });
    }

    private static IncidentView view(StoredIncident s, Map<String, List<BookedChange>> before) {
        var i = s.incident();
        return new IncidentView(s.id(), s.cluster(), i.cause(), i.rootCause().label(), i.scope(), i.node(), i.gpuPci(), i.gpuUuid(),
                i.namespace(), i.pod(), i.startedAt(), i.recoveredAt(), i.endedAt(),
                i.repair() == null ? null : BigDecimal.valueOf(i.repair().toMillis(), 3).stripTrailingZeros(), i.open(),
                i.occurrences(), i.evidence(),
                before.getOrDefault(IncidentChanges.key(s), List.of()).stream().map(ChangeView::of).toList());
    }
}
