package io.gpumeter.billing.client;

import io.gpumeter.common.security.ServiceToken;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import java.util.List;

/**
 * The ledger-service reads cost reports and the capacity plan need; use {@link LedgerClient}, which adds the call policy.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@RegisterRestClient(configKey = "ledger")
@RegisterProvider(ServiceToken.class)
interface LedgerRestClient {

    @GET
    @Path("/gpu-hours")
    List<GpuHours> gpuHours(@QueryParam("from") String from, @QueryParam("to") String to,
                            @QueryParam("groupBy") String groupBy, @QueryParam("tenant") String tenant,
                            @QueryParam("timeZone") String timeZone);

    @GET
    @Path("/normalization")
    NormalizationPolicy normalization();

    @GET
    @Path("/capacity")
    List<CardHours> capacity(@QueryParam("from") String from, @QueryParam("to") String to,
                             @QueryParam("groupBy") String groupBy, @QueryParam("timeZone") String timeZone);
}
