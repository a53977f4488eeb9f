package io.gpumeter.alert.rest;

import io.gpumeter.alert.config.AlertConfig;
import io.gpumeter.alert.domain.InvalidInput;
import io.gpumeter.alert.domain.ReceivedAlert;
import io.gpumeter.alert.domain.WebhookMessages;
import io.gpumeter.alert.domain.WebhookPayload;
import io.gpumeter.alert.service.WebhookService;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Problem;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;

/**
 * Alertmanager's webhook (payload version 4), firing and resolved. Alertmanager retries on 5xx, so a repeat of a
 * notification changes nothing; a bad body is a 4xx that it will not retry.
 */
@Path("/api/v1/alertmanager/webhook")
public class WebhookResource {

    private final WebhookService webhook;
    private final Optional<byte[]> token;

    public WebhookResource(WebhookService webhook, AlertConfig config) {
        this.webhook = webhook;
        this.token = config.webhook().token().filter(t -> !t.isBlank()).map(t -> t.strip().getBytes(StandardCharsets.UTF_8));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> receive(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization, WebhookPayload body) {
        if (!authorized(authorization)) {
            return Uni.createFrom().item(Response.status(401).header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                    .type(Problem.MEDIA_TYPE).entity(Problem.of(401, "Unauthorized",
                            "Send Alertmanager's bearer token (http_config.authorization) in the Authorization header.",
                            "Authorization"))
                    .build());
        }
        List<ReceivedAlert> alerts;
        try {
            alerts = WebhookMessages.parse(body);
        } catch (InvalidInput e) {
            throw ApiProblem.badRequest(e.field(), e.getMessage());
        }
        return webhook.receive(alerts, body.receiver(), body.groupKey()).map(receipt -> Response.ok(receipt).build());
    }

    private boolean authorized(String header) {
        if (token.isEmpty()) {
            return true;
        }
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        byte[] given = header.substring(7).strip().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, token.get());
    }
}
