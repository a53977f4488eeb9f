package io.gpumeter.collector.client;

import io.gpumeter.common.security.ServiceToken;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** slo-service's intake of inference engines' cache gauges: one pod's reading a line. */
@RegisterRestClient(configKey = "slo")
@RegisterProvider(ServiceToken.class)
@Path("/api/v1/ingest/engine-gauges")
interface SloEngineGaugeApi {

    @POST
    @Consumes("application/x-ndjson")
    @Produces(MediaType.APPLICATION_JSON)
    LatencyReceipt deliver(String ndjson);
}
