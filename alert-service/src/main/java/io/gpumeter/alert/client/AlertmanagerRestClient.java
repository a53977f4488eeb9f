package io.gpumeter.alert.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import java.util.List;

/** Alertmanager's alert intake; use {@link AlertmanagerClient}. */
@Path("/api/v2/alerts")
@RegisterRestClient(configKey = "alertmanager")
interface AlertmanagerRestClient {

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Void> post(List<PostableAlert> alerts);
}
