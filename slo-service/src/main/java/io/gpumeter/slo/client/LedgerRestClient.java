package io.gpumeter.slo.client;

import io.gpumeter.common.security.ServiceToken;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import java.util.List;

/**
 * The ledger-service reads jitter attribution, the interference factor and attainment breakdowns need; use {@link LedgerClient}, which
 * adds the call policy.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@RegisterRestClient(configKey = "ledger")
@RegisterProvider(ServiceToken.class)
interface LedgerRestClient {

    @GET
    @Path("/occupants")
    Uni<List<Occupant>> podOccupants(@QueryParam("namespace") String namespace, @QueryParam("pod") String pod,
                                     @QueryParam("at") String at);

    @GET
    @Path("/gpus/{uuid}/occupants")
    Uni<List<Occupant>> gpuOccupants(@PathParam("uuid") String uuid, @QueryParam("at") String at);

    @GET
    @Path("/scheduling-decisions")
    Uni<SchedulingDecision> podDecision(@QueryParam("namespace") String namespace, @QueryParam("pod") String pod);

    @GET
    @Path("/gpus/{uuid}/usage")
    Uni<List<UsagePoint>> usage(@PathParam("uuid") String uuid, @QueryParam("from") String from,
                                @QueryParam("to") String to);
}
