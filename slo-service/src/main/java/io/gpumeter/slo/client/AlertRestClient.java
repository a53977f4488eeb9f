package io.gpumeter.slo.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.security.ServiceToken;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** alert-service's runbook, which an acceptance run's recommended actions are drawn from. Use {@link AlertClient}. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@RegisterRestClient(configKey = "alert")
@RegisterProvider(ServiceToken.class)
interface AlertRestClient {

    /** Every alert's runbook entry: meaning, evidence, automatic actions, manual steps, who. */
    @GET
    @Path("/runbook")
    Uni<JsonNode> runbook(@QueryParam("format") String format);
}
