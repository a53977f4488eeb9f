package io.gpumeter.alert.service;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.core.MediaType;

import java.util.Map;

/** The generic outgoing ticket webhook: one JSON POST per alert change, to the configured URL. */
interface TicketRestClient {

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Void> post(@HeaderParam("Authorization") String authorization, Map<String, Object> ticket);
}
