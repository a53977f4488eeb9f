package io.gpumeter.slo.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.time.Instant;

/**
 * Calls billing-service with a timeout, retries and a circuit breaker (common's numbers; a window's cost reads the
 * ledger once per rate-card stretch, so its timeout is longer, see application.properties). billing-service never
 * calls slo-service: the calls go one way.
 */
@ApplicationScoped
@Timeout
@Retry
@CircuitBreaker
public class BillingClient {

    private final BillingRestClient billing;

    public BillingClient(@RestClient BillingRestClient billing) {
        this.billing = billing;
    }

    /** The window's cost per {@code groupBy} (tenant, team, project or namespace), as billing answers it. */
    public Uni<JsonNode> costs(Instant from, Instant to, String groupBy) {
        return billing.costs(from.toString(), to.toString(), groupBy);
    }
}
