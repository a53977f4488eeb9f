package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.slo.client.AlertClient;
import io.gpumeter.slo.client.BillingClient;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Instant;

/**
 * The reads of billing-service (a window's cost) and of alert-service (the runbook) an acceptance run makes, each
 * kept as evidence like the ledger's: a curl line and the answer, or "no answer: ..." and a missing figure.
 */
@ApplicationScoped
public class BillingReads {

    private final BillingClient billing;
    private final AlertClient alert;
    private final ObjectMapper json;
    private final String billingUrl;
    private final String alertUrl;

    public BillingReads(BillingClient billing, AlertClient alert, ObjectMapper json,
                        @ConfigProperty(name = "quarkus.rest-client.billing.url") String billingUrl,
                        @ConfigProperty(name = "quarkus.rest-client.alert.url") String alertUrl) {
        this.billing = billing;
        this.alert = alert;
        this.json = json;
        this.billingUrl = billingUrl;
        this.alertUrl = alertUrl;
    }

    /** The window's allocated, used and idle cost per namespace. */
    public Uni<LedgerReads.Read<JsonNode>> costs(Instant from, Instant to, String groupBy) {
        String curl = CurlLine.get(billingUrl, "/api/v1/costs", "from", from.toString(), "to", to.toString(),
                "groupBy", groupBy);
        return LedgerReads.recorded(json, curl, Uni.createFrom().deferred(() -> billing.costs(from, to, groupBy)),
                a -> a);
    }

    /** alert-service's runbook as JSON. */
    public Uni<LedgerReads.Read<JsonNode>> runbook() {
        String curl = CurlLine.get(alertUrl, "/api/v1/runbook", "format", "json");
        return LedgerReads.recorded(json, curl, Uni.createFrom().deferred(alert::runbook), a -> a);
    }
}
