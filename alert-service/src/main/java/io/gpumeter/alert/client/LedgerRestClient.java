package io.gpumeter.alert.client;

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

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The ledger-service reads the rules need; use {@link LedgerClient}, which adds the call policy. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@RegisterRestClient(configKey = "ledger")
@RegisterProvider(ServiceToken.class)
interface LedgerRestClient {

    /** Only the group is read: which nodes held GPU allocations in the window. */
    record NodeHours(String key, Map<String, String> group) {
    }

    record ViolationView(String kind, String resource, String gpuUuid, String namespace, String pod, Instant start,
                         Instant end, Double peakRatio) {
    }

    record UsageRequest(String from, String to, List<String> gpus) {
    }

    record CardUsageView(String gpuUuid, List<UsagePointView> points) {
    }

    record IncidentView(String cause, String rootCauseClass, String node, String gpuUuid, String namespace, String pod,
                        Instant startedAt, boolean open, String evidence, String id) {
    }

    @GET
    @Path("/gpu-hours")
    Uni<List<NodeHours>> gpuHours(@QueryParam("from") String from, @QueryParam("to") String to,
                                  @QueryParam("groupBy") String groupBy);

    /** 404 for a node the ledger never saw. */
    @GET
    @Path("/nodes/{node}/occupants")
    Uni<List<OccupantView>> nodeOccupants(@PathParam("node") String node, @QueryParam("at") String at);

    /** 404 for a card the ledger has neither in its inventory nor in its books. */
    @GET
    @Path("/gpus/{uuid}/occupants")
    Uni<List<OccupantView>> gpuOccupants(@PathParam("uuid") String uuid, @QueryParam("at") String at);

    /** Every unit held anywhere at an instant. */
    @GET
    @Path("/fleet/occupants")
    Uni<List<OccupantView>> fleetOccupants(@QueryParam("at") String at);

    /** Every usage series of each card named, per minute, over a window. */
    @POST
    @Path("/usage/series")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<List<CardUsageView>> usage(UsageRequest request);

    @GET
    @Path("/violations")
    Uni<List<ViolationView>> violations(@QueryParam("from") String from, @QueryParam("to") String to);

    @GET
    @Path("/failures/incidents")
    Uni<List<IncidentView>> incidents(@QueryParam("from") String from, @QueryParam("to") String to);

    /** {@code open=true}: every incident not yet recovered or ended, whatever its start. */
    @GET
    @Path("/failures/incidents")
    Uni<List<IncidentView>> openIncidents(@QueryParam("open") boolean open);
}
