package io.gpumeter.alert.client;

import io.gpumeter.common.security.ServiceToken;
import io.gpumeter.common.triage.Triage;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** slo-service's diagnosis of an inference service; use {@link DiagnosisClient}, which adds the call policy. */
@Path("/api/v1/triage")
@Produces(MediaType.APPLICATION_JSON)
@RegisterRestClient(configKey = "slo")
@RegisterProvider(ServiceToken.class)
interface SloDiagnosisRestClient {

    @GET
    @Path("/diagnosis")
    Uni<Triage> diagnosis(@QueryParam("namespace") String namespace, @QueryParam("service") String service,
                          @QueryParam("cluster") String cluster, @QueryParam("at") String at);
}
