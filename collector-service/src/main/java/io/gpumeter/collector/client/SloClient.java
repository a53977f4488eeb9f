package io.gpumeter.collector.client;

import io.gpumeter.common.client.Answers;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;


/**
 * Delivers request records and engine gauges to slo-service. Retrying is safe: slo-service keeps each accepted body's digest and
 * stores the same body once. A 4xx answer means the body itself is wrong, so it is neither retried nor counted
 * against the breaker.
 */
@ApplicationScoped
@Timeout
@Retry(abortOn = ApiProblem.class)
@CircuitBreaker(skipOn = ApiProblem.class)
public class SloClient {

    private final SloLatencyApi api;
    private final SloEngineGaugeApi gauges;

    public SloClient(@RestClient SloLatencyApi api, @RestClient SloEngineGaugeApi gauges) {
        this.api = api;
        this.gauges = gauges;
    }

    public LatencyReceipt deliver(String ndjson) {
        return Answers.delivered("slo-service", "batch of records", () -> api.deliver(ndjson));
    }

    /** Engine gauge lines, behind a breaker of their own: a failing gauge intake never stops the records. */
    public LatencyReceipt deliverGauges(String ndjson) {
        return Answers.delivered("slo-service", "batch of engine gauges", () -> gauges.deliver(ndjson));
    }
}
