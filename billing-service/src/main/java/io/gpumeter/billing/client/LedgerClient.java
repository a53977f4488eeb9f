package io.gpumeter.billing.client;

import io.gpumeter.billing.domain.TimeBucket;
import io.gpumeter.common.client.Answers;
import io.smallrye.faulttolerance.api.CircuitBreakerName;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

/**
 * Calls ledger-service with a timeout, retries and a circuit breaker; any failure surfaces as an exception.
 * Each call has its own named breaker, so that health can report it ({@link LedgerBreakers}).
 */
@ApplicationScoped
@Timeout
@Retry
@CircuitBreaker
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
     * {@code groupBy} (e.g. "tenant,model", or "model,day" split at the local midnights of {@code zone}; null zone:
     * the ledger's default, UTC), of one tenant's rows only when {@code tenant} is given (the ledger selects them),
     * else of all; empty when the ledger answers 404.
     */
    @CircuitBreakerName(GPU_HOURS)
    public List<GpuHours> gpuHours(Instant from, Instant to, String groupBy, String tenant, ZoneId zone) {
        return Answers.orIfNotFound(() -> ledger.gpuHours(from.toString(), to.toString(), groupBy, tenant,
                zone == null ? null : TimeBucket.zoneName(zone)), List.of());
    }

    /**
     * Card-hours the inventory could supply in [from, to), grouped by {@code groupBy} ("model", or "model,day" split
     * at the local midnights of {@code zone}); any failure, a 404 included, throws.
     */
    @CircuitBreakerName(CAPACITY)
    public List<CardHours> capacity(Instant from, Instant to, String groupBy, ZoneId zone) {
        List<CardHours> hours = ledger.capacity(from.toString(), to.toString(), groupBy, zone == null ? null : TimeBucket.zoneName(zone));
        return hours == null ? List.of() : hours;
    }

    /** The normalization policy in force; empty when the ledger answers 404. */
    @CircuitBreakerName(NORMALIZATION)
    public Optional<NormalizationPolicy> normalization() {
        return Answers.orIfNotFound(() -> Optional.ofNullable(ledger.normalization()), Optional.empty());
    }
}
