package io.gpumeter.alert.client;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.util.List;

/**
 * Posts alerts to Alertmanager with a timeout and no retries of its own: the outbox retries with back-off and
 * keeps what was not accepted.
 */
@ApplicationScoped
@Timeout
public class AlertmanagerClient {

    private final AlertmanagerRestClient alertmanager;

    public AlertmanagerClient(@RestClient AlertmanagerRestClient alertmanager) {
        this.alertmanager = alertmanager;
    }

    public Uni<Void> post(List<PostableAlert> alerts) {
        return alertmanager.post(alerts);
    }
}
