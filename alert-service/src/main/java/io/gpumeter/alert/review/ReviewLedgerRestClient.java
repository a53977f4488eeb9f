package io.gpumeter.alert.review;

import io.gpumeter.common.security.ServiceToken;
import io.gpumeter.common.triage.InputBundle;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import java.util.List;

/** The ledger-service reads a review needs; use {@link ReviewLedger}, which adds the call policy. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@RegisterRestClient(configKey = "ledger")
@RegisterProvider(ServiceToken.class)
interface ReviewLedgerRestClient {

    /** 404 for an id the ledger does not know. */
    @GET
    @Path("/failures/incidents/{id}")
    Uni<IncidentRef> incident(@PathParam("id") String id);

    /** The incidents that started in [from, to). */
    @GET
    @Path("/failures/incidents")
    Uni<List<IncidentRef>> incidents(@QueryParam("from") String from, @QueryParam("to") String to);

    /** {@code open=true}: every incident neither recovered nor ended, whatever its start. */
    @GET
    @Path("/failures/incidents")
    Uni<List<IncidentRef>> openIncidents(@QueryParam("open") boolean open);

    /**
     * Every fact the ledger's diagnosis of the subject (GET /api/v1/triage/diagnosis) reads, as the ledger's intakes
     * take them: the metering and governance facts as a bundle, the usage minutes as a usage batch.
     */
    @GET
    @Path("/triage/inputs")
    Uni<InputBundle> inputs(@QueryParam("namespace") String namespace, @QueryParam("pod") String pod,
                                @QueryParam("workload") String workload, @QueryParam("podGroup") String podGroup,
                                @QueryParam("node") String node, @QueryParam("cluster") String cluster,
                                @QueryParam("at") String at);
}
