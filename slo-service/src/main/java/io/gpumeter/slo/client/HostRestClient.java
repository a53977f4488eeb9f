package io.gpumeter.slo.client;

import io.gpumeter.common.security.ServiceToken;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import java.util.List;

/** The ledger's bulk host read, for a jitter event's host suspects; use {@link HostClient}, which adds the call policy. */
@Path("/api/v1/host")
@Produces(MediaType.APPLICATION_JSON)
@RegisterRestClient(configKey = "ledger")
@RegisterProvider(ServiceToken.class)
interface HostRestClient {

    /** Pods as "namespace/pod", nodes by name, of one cluster, over [from, to). */
    record SeriesRequest(String cluster, String from, String to, List<String> pods, List<String> nodes) {
    }

    @POST
    @Path("/series")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<HostSeries> series(SeriesRequest request);
}
