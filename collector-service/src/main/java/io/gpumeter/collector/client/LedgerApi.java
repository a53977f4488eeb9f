package io.gpumeter.collector.client;

import io.gpumeter.common.security.ServiceToken;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import io.gpumeter.common.fact.BundleResult;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.fact.LivePodSet;
import io.smallrye.mutiny.Multi;
import io.vertx.mutiny.core.buffer.Buffer;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** ledger-service's fact intake. */
@RegisterRestClient(configKey = "ledger")
@RegisterProvider(ServiceToken.class)
@Path("/api/v1/facts")
interface LedgerApi {

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    IngestResult deliver(FactBatch batch);

    @POST
    @Path("/bundles")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    BundleResult deliverBundle(Multi<Buffer> bundleJson);

    @POST
    @Path("/live-pods")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    IngestResult deliver(LivePodSet set);
}
