package io.gpumeter.collector.client;

import io.gpumeter.common.client.Answers;
import io.gpumeter.common.fact.BundleResult;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.HostBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.fact.LivePodSet;
import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Delivers fact batches to the ledger. Retrying is safe because every fact has a natural key; what a refusal means
 * (not retried, not counted by the breaker) is {@link Answers}' to decide. Delivery settings (longer timeouts, more
 * retries than a read) are this class's entries in application.properties.
 */
@ApplicationScoped
@Timeout
@Retry(abortOn = ApiProblem.class)
@CircuitBreaker(skipOn = ApiProblem.class)
public class LedgerClient {

    private final LedgerApi api;
    private final LedgerUsageApi usageApi;
    private final GovernanceLedgerApi governanceApi;
    private final LedgerHostApi hostApi;

    public LedgerClient(@RestClient LedgerApi api, @RestClient LedgerUsageApi usageApi,
                        @RestClient GovernanceLedgerApi governanceApi, @RestClient LedgerHostApi hostApi) {
        this.api = api;
        this.usageApi = usageApi;
        this.governanceApi = governanceApi;
        this.hostApi = hostApi;
    }

    public IngestResult deliver(FactBatch batch) {
        return Answers.delivered("the ledger", "batch", () -> api.deliver(batch));
    }

    /**
     * A bundle written as JSON: a replay's bundle runs to tens of megabytes, written once rather than on every
     * attempt, and sent as bytes in pieces ({@link JsonBody#pieces()}), never as one string on the HTTP client's event
     * loop nor as one buffer on the socket; its length is not known before it is written, so it goes chunked. A body
     * whose writing failed fails the delivery with that cause, not retried, whatever the ledger answered to it.
     */
    public BundleResult deliver(JsonBody bundle) {
        return Answers.delivered("the ledger", "batch", () -> {
            try {
                return api.deliverBundle(bundle.pieces());
            } finally {
                bundle.requireWritten(); // the ledger's answer to a body cut short is not the cause
            }
        });
    }

    public UsageReceipt deliver(UsageBatch batch) {
        return Answers.delivered("the ledger", "batch", () -> usageApi.deliver(batch));
    }

    public HostReceipt deliver(HostBatch batch) {
        return Answers.delivered("the ledger", "batch", () -> hostApi.deliver(batch));
    }

    public IngestResult deliver(GovernanceBatch batch) {
        return Answers.delivered("the ledger", "batch", () -> governanceApi.deliver(batch));
    }

    public IngestResult deliver(LivePodSet set) {
        return Answers.delivered("the ledger", "batch", () -> api.deliver(set));
    }
}
