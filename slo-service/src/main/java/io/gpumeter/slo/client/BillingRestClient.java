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

/** The billing-service read an acceptance run makes: a window's cost per group. Use {@link BillingClient}. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@RegisterRestClient(configKey = "billing")
@RegisterProvider(ServiceToken.class)
interface BillingRestClient {

    /** Allocated, used and idle GPU-hours and their cost over [from, to), one line per group. */
    @GET
    @Path("/costs")
    Uni<JsonNode> costs(@QueryParam("from") String from, @QueryParam("to") String to,
                        @QueryParam("groupBy") String groupBy);
}
