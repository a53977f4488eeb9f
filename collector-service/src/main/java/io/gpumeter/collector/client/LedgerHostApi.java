package io.gpumeter.collector.client;

import io.gpumeter.common.fact.HostBatch;
import io.gpumeter.common.security.ServiceToken;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** ledger-service's host-minute intake. */
@RegisterRestClient(configKey = "ledger")
@RegisterProvider(ServiceToken.class)
@Path("/api/v1/host/minutes")
interface LedgerHostApi {

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    HostReceipt deliver(HostBatch batch);
}
