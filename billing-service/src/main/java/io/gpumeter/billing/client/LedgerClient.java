package io.gpumeter.billing.client;

import io.smallrye.faulttolerance.api.CircuitBreakerName;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * Calls ledger-service with a timeout, retries and a circuit breaker; any failure surfaces as an exception.
 * Each call has its own named breaker, so that health can report it ({@link LedgerBreakers}).
 */
@ApplicationScoped
public class LedgerClient {

    static final String GPU_HOURS = "ledger-gpu-hours";
    static final String CAPACITY = "ledger-capacity";
    static final String NORMALIZATION = "ledger-normalization";

    private final LedgerRestClient ledger;

    public LedgerClient(@RestClient LedgerRestClient ledger) {
        this.ledger = ledger;
    }

    /**
     * Allocated and used normalized GPU-hours in [from, to) grouped by the comma-separated ledger dimensions
     * {@code groupBy} (e.g. "tenant,model"); empty when the ledger answers 404.
     */
    @Timeout(value = 10, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 10, delayUnit = ChronoUnit.SECONDS)
    @CircuitBreakerName(GPU_HOURS)
    public List<GpuHours> gpuHours(Instant from, Instant to, String groupBy) {
        try {
            List<GpuHours> hours = ledger.gpuHours(from.toString(), to.toString(), groupBy);
            return hours == null ? List.of() : hours;
        } catch (WebApplicationException e) {
            // 404 is handled inside the breaker: "nothing recorded" is an answer, not a failing ledger.
            if (e.getResponse().getStatus() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    /** Card-hours the inventory could supply in [from, to), per GPU model; any failure, a 404 included, throws. */
    @Timeout(value = 10, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 10, delayUnit = ChronoUnit.SECONDS)
    @CircuitBreakerName(CAPACITY)
    public List<CardHours> capacityByModel(Instant from, Instant to) {
        List<CardHours> hours = ledger.capacity(from.toString(), to.toString(), "model");
        return hours == null ? List.of() : hours;
    }

    /** The normalization policy in force; empty when the ledger answers 404. */
    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 10, delayUnit = ChronoUnit.SECONDS)
    @CircuitBreakerName(NORMALIZATION)
    public Optional<NormalizationPolicy> normalization() {
        try {
            return Optional.ofNullable(ledger.normalization());
        } catch (WebApplicationException e) {
            if (e.getResponse().getStatus() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
