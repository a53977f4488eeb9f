package io.gpumeter.alert.service;

import io.gpumeter.common.client.Answers;
import io.gpumeter.alert.config.ActionsConfig;
import io.gpumeter.alert.config.AlertConfig;
import io.gpumeter.alert.domain.ReceivedAlert;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Opens (and on resolve updates) a ticket through the configured outgoing webhook. */
@ApplicationScoped
public class Tickets {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final ActionsConfig.Ticket config;
    private final Optional<TicketRestClient> client;

    public Tickets(AlertConfig config) {
        this.config = config.actions().ticket();
        this.client = this.config.url().map(Tickets::build);
    }

    /** The URL host tickets go to, the audit's target; empty when no URL is configured. */
    public Optional<String> target() {
        return config.url().map(URI::getHost);
    }

    public Uni<Outcome> send(ReceivedAlert alert, boolean resolved, String runbookUrl) {
        if (client.isEmpty()) {
            return Uni.createFrom().item(Outcome.skipped("no ticket URL configured (gpumeter.alert.actions.ticket.url)"));
        }
        Map<String, Object> ticket = new LinkedHashMap<>();
        ticket.put("source", "gpumeter alert-service");
        ticket.put("status", resolved ? "resolved" : "firing");
        ticket.put("alertname", alert.alertname());
        ticket.put("fingerprint", alert.fingerprint());
        ticket.put("startsAt", alert.startsAt().toString());
        ticket.put("endsAt", alert.endsAt() == null ? null : alert.endsAt().toString());
        ticket.put("summary", alert.annotations().get("summary"));
        ticket.put("labels", alert.labels());
        ticket.put("annotations", alert.annotations());
        ticket.put("runbookUrl", runbookUrl);
        String auth = config.token().filter(t -> !t.isBlank()).map(t -> "Bearer " + t).orElse(null);
        return client.get().post(auth, ticket)
                .ifNoItem().after(TIMEOUT).fail()
                .map(ignored -> Outcome.applied((resolved ? "updated ticket at " : "opened ticket at ") + target().orElse("")))
                .onFailure().recoverWithItem(e -> Outcome.failed("ticket webhook: " + Answers.reason(e)));
    }

    private static TicketRestClient build(URI url) {
        return QuarkusRestClientBuilder.newBuilder().baseUri(url)
                .connectTimeout(5, TimeUnit.SECONDS).readTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                .build(TicketRestClient.class);
    }
}
