package io.gpumeter.collector.client;

import io.gpumeter.common.fact.BundleResult;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.fact.LivePodSet;
import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.RelayedProblem;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.time.temporal.ChronoUnit;

/**
 * Delivers fact batches to the ledger. Retrying is safe because every fact has a natural key; a 4xx answer
 * means the batch itself is wrong, so it is neither retried nor counted against the breaker.
 */
@ApplicationScoped
public class LedgerClient {

    private final LedgerApi api;
    private final LedgerUsageApi usageApi;
    private final GovernanceLedgerApi governanceApi;

    public LedgerClient(@RestClient LedgerApi api, @RestClient LedgerUsageApi usageApi,
                        @RestClient GovernanceLedgerApi governanceApi) {
        this.api = api;
        this.usageApi = usageApi;
        this.governanceApi = governanceApi;
    }

    @Timeout(value = 120, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 4, delay = 500, jitter = 200, abortOn = ApiProblem.class)
    @CircuitBreaker(requestVolumeThreshold = 8, failureRatio = 0.75, delay = 10, delayUnit = ChronoUnit.SECONDS,
            skipOn = ApiProblem.class)
    public IngestResult deliver(FactBatch batch) {
        return call(() -> api.deliver(batch));
    }

    @Timeout(value = 120, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 4, delay = 500, jitter = 200, abortOn = ApiProblem.class)
    @CircuitBreaker(requestVolumeThreshold = 8, failureRatio = 0.75, delay = 10, delayUnit = ChronoUnit.SECONDS,
            skipOn = ApiProblem.class)
    public BundleResult deliver(FactBundle bundle) {
        return call(() -> api.deliver(bundle));
    }

    @Timeout(value = 60, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 4, delay = 500, jitter = 200, abortOn = ApiProblem.class)
    @CircuitBreaker(requestVolumeThreshold = 8, failureRatio = 0.75, delay = 10, delayUnit = ChronoUnit.SECONDS,
            skipOn = ApiProblem.class)
    public UsageReceipt deliver(UsageBatch batch) {
        return call(() -> usageApi.deliver(batch));
    }

    @Timeout(value = 120, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 4, delay = 500, jitter = 200, abortOn = ApiProblem.class)
    @CircuitBreaker(requestVolumeThreshold = 8, failureRatio = 0.75, delay = 10, delayUnit = ChronoUnit.SECONDS,
            skipOn = ApiProblem.class)
    public IngestResult deliver(GovernanceBatch batch) {
        return call(() -> governanceApi.deliver(batch));
    }

    @Timeout(value = 120, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 4, delay = 500, jitter = 200, abortOn = ApiProblem.class)
    @CircuitBreaker(requestVolumeThreshold = 8, failureRatio = 0.75, delay = 10, delayUnit = ChronoUnit.SECONDS,
            skipOn = ApiProblem.class)
    public IngestResult deliver(LivePodSet set) {
        return call(() -> api.deliver(set));
    }

    private static <T> T call(java.util.function.Supplier<T> delivery) {
        try {
            return delivery.get();
        } catch (WebApplicationException e) {
            throw refused(e);
        }
    }

    /**
     * A 4xx is the batch's own fault: a problem for the sender. A 500 is the ledger's own failure on this batch,
     * which a retry would only repeat: a 500 problem that says so, not an outage. Anything else (502–504, a dropped
     * connection) is unavailability and worth retrying.
     */
    private static RuntimeException refused(WebApplicationException e) {
        Response r = e.getResponse();
        if (r != null && r.getStatus() >= 400 && r.getStatus() < 500) {
            return new ApiProblem(422, "Unprocessable Content", null,
                    RelayedProblem.describe("the ledger refused the batch", r));
        }
        if (r != null && r.getStatus() == 500) {
            return new ApiProblem(500, "Internal Server Error", null, "the ledger failed on this batch (an internal "
                    + "error, logged by the ledger); nothing of it is stored, and sending it again fails the same way");
        }
        return e;
    }
}
