package io.gpumeter.slo.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Reads alert-service's runbook with a short timeout and a circuit breaker, no retries. alert-service calls slo-service
 * for SLO states on its own schedule; this read is made only while a plan is evaluated, and alert-service answers it
 * from its configuration without calling anyone, so no request of one ever waits on a request of the other. When
 * alert-service does not answer, the run lists no runbook actions and says so; it never fails for it.
 */
@ApplicationScoped
@Timeout
@CircuitBreaker
public class AlertClient {

    private final AlertRestClient alert;

    public AlertClient(@RestClient AlertRestClient alert) {
        this.alert = alert;
    }

    /** The runbook's entries as alert-service serves them (JSON). */
    public Uni<JsonNode> runbook() {
        return alert.runbook("json");
    }
}
