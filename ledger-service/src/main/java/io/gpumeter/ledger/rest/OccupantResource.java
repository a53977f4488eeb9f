package io.gpumeter.ledger.rest;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.common.problem.Window;
import io.gpumeter.ledger.fleet.FleetLayout;
import io.gpumeter.ledger.occupancy.domain.CardHoldings;
import io.gpumeter.ledger.occupancy.domain.Occupant;
import io.gpumeter.ledger.occupancy.domain.PodHoldings;
import io.gpumeter.ledger.service.FleetLayoutService;
import io.gpumeter.ledger.service.OccupancyService;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * Q1: the occupants of a GPU, a node or the whole fleet at an instant (default now), and what a set of cards held
 * over a window; and the reverse: what a pod held, at an instant or, for a set of pods, over a window.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@RegisterForReflection(targets = {FleetLayout.class, FleetLayout.Group.class, FleetLayout.Node.class, FleetLayout.Card.class})
public class OccupantResource {

    /** The most pods one holdings read names; a larger set is split by the caller. */
    static final int MAX_PODS = 2000;

    private final OccupancyService occupancy;
    private final FleetLayoutService layouts;

    private final Clock clock;

    public OccupantResource(OccupancyService occupancy, FleetLayoutService layouts, Clock clock) {
        this.clock = clock;
        this.occupancy = occupancy;
        this.layouts = layouts;
    }

    @GET
    @Path("/gpus/{uuid}/occupants")
    public Uni<List<Occupant>> ofGpu(@PathParam("uuid") String uuid, @QueryParam("at") String at,
                                     @QueryParam("tenant") String tenant) {
        return occupancy.ofGpu(uuid, Params.instantOr("at", at, clock.instant()), Params.optional(tenant));
    }

    @GET
    @Path("/nodes/{node}/occupants")
    public Uni<List<Occupant>> ofNode(@PathParam("node") String node, @QueryParam("at") String at,
                                      @QueryParam("cluster") String cluster, @QueryParam("tenant") String tenant) {
        return occupancy.ofNode(cluster, node, Params.instantOr("at", at, clock.instant()), Params.optional(tenant));
    }

    /** The GPUs and units a pod held at an instant: the same rows as Q1, looked up from the pod's side. */
    @GET
    @Path("/occupants")
    public Uni<List<Occupant>> ofPod(@QueryParam("namespace") String namespace, @QueryParam("pod") String pod,
                                     @QueryParam("at") String at, @QueryParam("cluster") String cluster,
                                     @QueryParam("tenant") String tenant) {
        String ns = required("namespace", namespace);
        String name = required("pod", pod);
        return occupancy.ofPod(Params.optional(cluster), ns, name, Params.instantOr("at", at, clock.instant()),
                Params.optional(tenant));
    }

    /**
     * Every unit held at an instant across the fleet, optionally on one node, in one namespace or cluster: the
     * occupants of all nodes in one read. With {@code layout=true}, the fleet's layout instead: every card of the
     * inventory at the instant and who held it, a page of the nodes ({@code limit}, {@code offset}) and the cards per
     * pool or model ({@code groupBy}) over every node; it shows every unit on the cards, so it is never one tenant's.
     */
    @GET
    @Path("/fleet/occupants")
    @Operation(summary = "Every unit held at at (default now), optionally of one node, namespace or cluster; with"
            + " layout=true every card of the inventory and who held it, a page of nodes (limit, offset) and the cards,"
            + " held and free per pool or model (groupBy=pool|model); group=<key> lists only that group's nodes")
    public Uni<?> ofFleet(@QueryParam("at") String at, @QueryParam("node") String node,
                          @QueryParam("namespace") String namespace, @QueryParam("cluster") String cluster,
                          @QueryParam("tenant") String tenant, @QueryParam("layout") String layout,
                          @QueryParam("groupBy") String groupBy, @QueryParam("group") String group,
                          @QueryParam("limit") String limit,
                          @QueryParam("offset") String offset) {
        Instant instant = Params.instantOr("at", at, clock.instant());
        if (!Params.flag("layout", layout)) {
            if (Params.optional(groupBy) != null) {
                throw ApiProblem.badRequest("groupBy", "groupBy cuts the fleet's layout: ask for it with layout=true");
            }
            if (Params.optional(group) != null) {
                throw ApiProblem.badRequest("group", "group lists one group of the fleet's layout: ask for it with layout=true");
            }
            return occupancy.at(instant, Params.optional(cluster), Params.optional(node), Params.optional(namespace),
                    Params.optional(tenant));
        }
        if (Params.optional(tenant) != null) {
            throw new ApiProblem(403, "Forbidden", "tenant", "the fleet's layout shows every unit on the cards, whoever"
                    + " holds it: it is never cut to one tenant, and a tenant token may not read fleet-wide figures");
        }
        if (Params.optional(namespace) != null) {
            throw ApiProblem.badRequest("namespace", "the fleet's layout shows every unit on the cards: it is not cut"
                    + " by namespace");
        }
        return layouts.at(instant, Params.optional(cluster), Params.optional(node), Params.optional(groupBy),
                Params.optional(group), Window.of(limit, offset));
    }

    /**
     * What each of a set of pods held over a window, each unit with the part of the window it was held: the
     * placement of many pods over many minutes in one read.
     */
    @POST
    @Path("/holdings")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "The units each pod held in [from, to), with the part of the window each was held"
            + " (at most " + MAX_PODS + " pods)")
    public Uni<List<PodHoldings>> holdings(HoldingsRequest request) {
        if (request == null) {
            throw ApiProblem.badRequest("body", "a holdings request is required: {\"from\",\"to\",\"pods\":[{\"namespace\",\"pod\"}]}");
        }
        TimeWindow window = Params.window(Params.instant("from", request.from()), Params.instant("to", request.to()));
        return occupancy.holdings(window, Params.optional(request.cluster()), PodRefs.keys(request.pods(), MAX_PODS));
    }

    /**
     * What was held on each of a set of cards over a window, each unit with the part of the window it was held: the
     * neighbours of many cards over many minutes in one read.
     */
    @POST
    @Path("/card-holdings")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "The units held on each card in [from, to), with the part of the window each was held"
            + " (at most " + CardUsageResource.MAX_CARDS + " cards)")
    public Uni<List<CardHoldings>> cardHoldings(CardHoldingsRequest request) {
        if (request == null) {
            throw ApiProblem.badRequest("body", "a card holdings request is required: {\"from\",\"to\",\"gpus\":[\"GPU-...\"]}");
        }
        TimeWindow window = Params.window(Params.instant("from", request.from()), Params.instant("to", request.to()));
        return occupancy.holdingsOfCards(window, Params.optional(request.cluster()),
                CardUsageResource.cards(request.gpus()));
    }

    private static String required(String field, String value) {
        if (value == null || value.isBlank()) {
            throw ApiProblem.badRequest(field, field + " is required");
        }
        return value.trim();
    }
}
