package io.gpumeter.alert.rest;

import io.gpumeter.alert.config.AlertConfig;
import io.gpumeter.alert.domain.ReceivedAlert;
import io.gpumeter.alert.domain.WebhookMessages;
import io.gpumeter.alert.domain.WebhookPayload;
import io.gpumeter.alert.service.WebhookService;
import io.gpumeter.common.problem.Problem;
import io.smallrye.mutiny.Uni;
import org.jboss.logging.Logger;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;

/**
 * Alertmanager's webhook (payload version 4), firing and resolved. Alertmanager retries on 5xx, so a repeat of a
 * notification changes nothing; a bad body is a 4xx that it will not retry. Without a configured token every call is
 * refused.
 */
@Path("/api/v1/alertmanager/webhook")
public class WebhookResource {

    private static final Logger LOG = Logger.getLogger(WebhookResource.class);

    private final WebhookService webhook;
    private final WebhookToken token;

    public WebhookResource(WebhookService webhook, AlertConfig config) {
        this.webhook = webhook;
        this.token = WebhookToken.of(config.webhook().token());
        if (!token.configured()) {
            LOG.warn("gpumeter.alert.webhook.token (GPUMETER_ALERT_WEBHOOK_TOKEN) is not set: the Alertmanager webhook "
                    + "refuses every call");
        }
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> receive(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization, WebhookPayload body) {
        if (!token.configured()) {
            return unauthorized("This webhook has no token configured, so it refuses every call: set "
                    + "gpumeter.alert.webhook.token (GPUMETER_ALERT_WEBHOOK_TOKEN) and send it as Alertmanager's bearer token.");
        }
        if (!token.accepts(authorization)) {
            return unauthorized("Send Alertmanager's bearer token (http_config.authorization) in the Authorization header.");
        }
        List<ReceivedAlert> alerts = WebhookMessages.parse(body);
        return webhook.receive(alerts, body.receiver(), body.groupKey()).map(receipt -> Response.ok(receipt).build());
    }

    private static Uni<Response> unauthorized(String detail) {
        return Uni.createFrom().item(Response.status(401).header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .type(Problem.MEDIA_TYPE).entity(Problem.of(401, "Unauthorized", detail, "Authorization")).build());
    }
}
