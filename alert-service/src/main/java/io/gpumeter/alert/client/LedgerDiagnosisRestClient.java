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

/** The ledger's diagnosis of a pod, Workload, PodGroup or node; use {@link DiagnosisClient}, which adds the call policy. */
@Path("/api/v1/triage")
@Produces(MediaType.APPLICATION_JSON)
@RegisterRestClient(configKey = "ledger")
@RegisterProvider(ServiceToken.class)
interface LedgerDiagnosisRestClient {

    /** The request of {@code TriageRequest}; a parameter left null is not sent. */
    @GET
    @Path("/diagnosis")
    Uni<Triage> diagnosis(@QueryParam("namespace") String namespace, @QueryParam("pod") String pod,
                          @QueryParam("workload") String workload, @QueryParam("podGroup") String podGroup,
                          @QueryParam("node") String node, @QueryParam("cluster") String cluster,
                          @QueryParam("at") String at);
}
