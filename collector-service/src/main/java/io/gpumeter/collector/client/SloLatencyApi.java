package io.gpumeter.collector.client;

import io.gpumeter.common.security.ServiceToken;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** slo-service's latency intake: one request record a line. */
@RegisterRestClient(configKey = "slo")
@RegisterProvider(ServiceToken.class)
@Path("/api/v1/ingest/latency")
interface SloLatencyApi {

    @POST
    @Consumes("application/x-ndjson")
    @Produces(MediaType.APPLICATION_JSON)
    LatencyReceipt deliver(String ndjson);
}
