package io.gpumeter.collector.client;

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
 * Delivers request records and engine gauges to slo-service. Retrying is safe: slo-service keeps each accepted body's digest and
 * stores the same body once. A 4xx answer means the body itself is wrong, so it is neither retried nor counted
 * against the breaker.
 */
@ApplicationScoped
public class SloClient {

    private final SloLatencyApi api;
    private final SloEngineGaugeApi gauges;

    public SloClient(@RestClient SloLatencyApi api, @RestClient SloEngineGaugeApi gauges) {
        this.api = api;
        this.gauges = gauges;
    }

    @Timeout(value = 30, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 4, delay = 500, jitter = 200, abortOn = ApiProblem.class)
    @CircuitBreaker(requestVolumeThreshold = 8, failureRatio = 0.75, delay = 10, delayUnit = ChronoUnit.SECONDS,
            skipOn = ApiProblem.class)
    public LatencyReceipt deliver(String ndjson) {
        try {
            return api.deliver(ndjson);
        } catch (WebApplicationException e) {
            throw refused(e, "records");
        }
    }

    /** Engine gauge lines, behind a breaker of their own: a failing gauge intake never stops the records. */
    @Timeout(value = 30, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 4, delay = 500, jitter = 200, abortOn = ApiProblem.class)
    @CircuitBreaker(requestVolumeThreshold = 8, failureRatio = 0.75, delay = 10, delayUnit = ChronoUnit.SECONDS,
            skipOn = ApiProblem.class)
    public LatencyReceipt deliverGauges(String ndjson) {
        try {
            return gauges.deliver(ndjson);
        } catch (WebApplicationException e) {
            throw refused(e, "engine gauges");
        }
    }

    /** A 4xx as a problem that is neither retried nor counted; anything else as it came. */
    private static RuntimeException refused(WebApplicationException e, String what) {
        Response r = e.getResponse();
        if (r != null && r.getStatus() >= 400 && r.getStatus() < 500) {
            return new ApiProblem(422, "Unprocessable Content", null,
                    RelayedProblem.describe("slo-service refused the " + what, r));
        }
        return e;
    }
}
