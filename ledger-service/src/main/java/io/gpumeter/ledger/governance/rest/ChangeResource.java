package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.common.problem.Window;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.repository.ChangeRepository.Scope;
import io.gpumeter.ledger.governance.service.ChangeService.Impact;
import io.gpumeter.ledger.governance.service.ChangeService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The change book: what changed on the fleet's nodes, GPU stack and queues, derived from the stored versions
 * ({@code kind} NODE_ADDED … QUOTA, {@code source} naming where it was seen, or the suite's own action); many scopes
 * in one read; and what a change did to the failures of the nodes it touched.
 */
@Path("/api/v1/changes")
@Produces(MediaType.APPLICATION_JSON)
public class ChangeResource {

    /** The most scopes one bulk read takes. */
    static final int MAX_SCOPES = 1_000;
    /** The most changes one scope of a bulk read answers. */
    static final int MAX_PER_SCOPE = 1_000;

    private final ChangeService changes;

    public ChangeResource(ChangeService changes) {
        this.changes = changes;
    }

    /**
     * One change: {@code node} null for a cluster-wide one; {@code count} how many changes of its subject its minute
     * held (a flapping value), {@code before} the first one's and {@code after} the last one's; {@code pool} the node's
     * pool at the change's version as the fragmentation read names pools (the first pool label it carried, else its
     * card model), null for a cluster-wide change.
     */
    public record ChangeView(String id, Instant at, String cluster, String node, String pool, String kind,
                             String subject, String before, String after, String source, int count) {

        static ChangeView of(BookedChange c) {
            return new ChangeView(c.id(), c.at(), c.cluster(), c.node(), c.pool(), c.kind().name(), c.subject(),
                    c.before(), c.after(), c.source(), c.count());
        }
    }

    /** The changes of [from, to), by instant; of one cluster, node and kinds (comma-separated) where given. */
    @GET
    public Uni<List<ChangeView>> list(@QueryParam("from") String from, @QueryParam("to") String to,
                                      @QueryParam("cluster") String cluster, @QueryParam("node") String node,
                                      @QueryParam("kind") List<String> kind, @QueryParam("limit") String limit,
                                      @QueryParam("offset") String offset) {
        Window window = Window.of(limit, offset);
        return changes.list(Params.instant("from", from), Params.instant("to", to), Params.optional(cluster),
                        Params.optional(node), ChangeService.kinds("kind", kind), window)
                .map(page -> page.map(ChangeView::of));
    }

    /** One scope's answer to a bulk read: the scope as read, its changes, and how many it holds in all. */
    public record ScopeView(String cluster, String node, Instant from, Instant to, long total, List<ChangeView> changes) {
    }

    @POST
    @Path("/bulk")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<List<ScopeView>> bulk(ChangesRequest request) {
        List<Scope> scopes = scopes(request);
        return changes.bulk(scopes).map(found -> {
            List<ScopeView> out = new ArrayList<>(found.size());
            for (int i = 0; i < found.size(); i++) {
                Scope s = scopes.get(i);
                out.add(new ScopeView(s.cluster(), s.node(), s.from(), s.to(), found.get(i).total(),
                        found.get(i).changes().stream().map(ChangeView::of).toList()));
            }
            return out;
        });
    }

    static List<Scope> scopes(ChangesRequest request) {
        if (request == null || request.scopes() == null || request.scopes().isEmpty()) {
            throw ApiProblem.badRequest("scopes", "scopes must name at least one scope");
        }
        if (request.scopes().size() > MAX_SCOPES) {
            throw ApiProblem.badRequest("scopes", "a bulk read takes at most " + MAX_SCOPES + " scopes, got "
                    + request.scopes().size());
        }
        List<Scope> out = new ArrayList<>();
        for (int i = 0; i < request.scopes().size(); i++) {
            ChangesRequest.ChangeScope s = request.scopes().get(i);
            String at = "scopes[" + i + "]";
            if (s == null) {
                throw ApiProblem.badRequest(at, at + " is null");
            }
            ClusterName.require(at + ".cluster", s.cluster());
            Instant from = Params.instant(at + ".from", s.from());
            Instant to = Params.instant(at + ".to", s.to());
            if (!to.isAfter(from)) {
                throw ApiProblem.badRequest(at + ".to", at + ".to must be after from");
            }
            int limit = s.limit() == null ? MAX_PER_SCOPE : s.limit();
            if (limit < 1 || limit > MAX_PER_SCOPE) {
                throw ApiProblem.badRequest(at + ".limit", at + ".limit must be between 1 and " + MAX_PER_SCOPE);
            }
            out.add(new Scope(s.cluster(), Params.optional(s.node()), from, to, ChangeService.kinds(at + ".kinds", s.kinds()),
                    s.clusterWide() == null || s.clusterWide(), limit, Boolean.TRUE.equals(s.newestFirst()), true,
                    Params.optional(s.pool())));
        }
        return out;
    }

    /**
     * The nodes a change touched over [from, at) and [at, to) (by default the configured window on each side):
     * failures by cause per 1,000 GPU-hours, MTTR and Xid counts, with the GPU-hours they count over.
     */
    @GET
    @Path("/{id}/impact")
    public Uni<Impact> impact(@PathParam("id") String id, @QueryParam("from") String from, @QueryParam("to") String to) {
        return changes.impact(id, Params.instantOrNull("from", from), Params.instantOrNull("to", to));
    }
}
