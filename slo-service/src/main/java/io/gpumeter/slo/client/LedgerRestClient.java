package io.gpumeter.slo.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.security.ServiceToken;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import java.util.List;

/**
 * The ledger-service reads jitter attribution, the interference factor, attainment breakdowns and the changes before
 * events need, each for a whole set of pods, cards or scopes at once; use {@link LedgerClient}, which adds the call
 * policy.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@RegisterRestClient(configKey = "ledger")
@RegisterProvider(ServiceToken.class)
interface LedgerRestClient {

    record PodRef(String namespace, String pod) {
    }

    record HoldingsRequest(String from, String to, List<PodRef> pods) {
    }

    record CardHoldingsRequest(String from, String to, List<String> gpus) {
    }

    record UsageRequest(String from, String to, List<String> gpus) {
    }

    /** What each pod held over a window. */
    @POST
    @Path("/holdings")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<List<PodHoldings>> holdings(HoldingsRequest request);

    /** What was held on each card over a window. */
    @POST
    @Path("/card-holdings")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<List<CardHoldings>> cardHoldings(CardHoldingsRequest request);

    /** The queue each of a set of pods went through (its scheduling decision's queues). */
    @POST
    @Path("/pod-queues")
    Uni<List<PodQueue>> podQueues(PodQueuesRequest request);

    record PodQueuesRequest(List<PodRef> pods) {
    }

    /** The incidents of a set of pods that started in a window, by start (the holdings read's body). */
    @POST
    @Path("/failures/pod-incidents")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<List<JsonNode>> podIncidents(HoldingsRequest request);

    /** Queue waits (p50/p95/p99, seconds) of what was admitted in a window, per group. */
    @GET
    @Path("/queue-wait")
    Uni<JsonNode> queueWait(@QueryParam("from") String from, @QueryParam("to") String to,
                            @QueryParam("groupBy") String groupBy);

    /** What waited in a queue at an instant, with the reason the cluster gave. */
    @GET
    @Path("/queue-wait/pending")
    Uni<JsonNode> pending(@QueryParam("at") String at);

    /** Allocated and used GPU-hours over a window, per group. */
    @GET
    @Path("/gpu-hours")
    Uni<JsonNode> gpuHours(@QueryParam("from") String from, @QueryParam("to") String to,
                           @QueryParam("groupBy") String groupBy);

    /** The fleet's fragmentation at an instant. */
    @GET
    @Path("/fragmentation")
    Uni<JsonNode> fragmentation(@QueryParam("at") String at);

    /** Every usage series of each card, per minute, over a window. */
    @POST
    @Path("/usage/series")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<List<CardUsage>> usage(UsageRequest request);

    record ChangesRequest(List<ChangeScope> scopes) {
    }

    /** Many scopes of the change book in one read, answered in the order asked. */
    @POST
    @Path("/changes/bulk")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<List<ScopeChanges>> changes(ChangesRequest request);

    /** A change and the nodes it touched, with the windows before and after it (404 for an unknown change). */
    @GET
    @Path("/changes/{id}/impact")
    Uni<ChangeImpact> changeImpact(@PathParam("id") String id, @QueryParam("from") String from,
                                   @QueryParam("to") String to);

    /** Per GPU model: daily card-hours less cordons and failures, the inventory and its shapes, failures and maintenance. */
    @GET
    @Path("/capacity/supply")
    Uni<Supply> supply(@QueryParam("from") String from, @QueryParam("to") String to,
                       @QueryParam("timeZone") String timeZone, @QueryParam("cluster") String cluster);

    /** Daily allocated GPU-hours per model, workload class, request shape and service; queue and pending peaks. */
    @GET
    @Path("/demand")
    Uni<Demand> demand(@QueryParam("from") String from, @QueryParam("to") String to,
                       @QueryParam("timeZone") String timeZone, @QueryParam("cluster") String cluster);
}
