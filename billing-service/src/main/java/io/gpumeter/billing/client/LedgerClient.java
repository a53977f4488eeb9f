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
import java.util.function.Supplier;

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
     * {@code groupBy} (e.g. "tenant,model"), of one tenant's rows only when {@code tenant} is given (the ledger
     * selects them), else of all; empty when the ledger answers 404.
     */
    @Timeout(value = 10, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 10, delayUnit = ChronoUnit.SECONDS)
    @CircuitBreakerName(GPU_HOURS)
    public List<GpuHours> gpuHours(Instant from, Instant to, String groupBy, String tenant) {
        try {
            List<GpuHours> hours = ledger.gpuHours(from.toString(), to.toString(), groupBy, tenant);
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

    /** Queue-wait percentiles per Kueue ClusterQueue of what was admitted in [from, to); empty when the ledger answers 404. */
    @Timeout(value = 10, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 10, delayUnit = ChronoUnit.SECONDS)
    public List<QueueWait> queueWaitByClusterQueue(Instant from, Instant to) {
        return orEmptyOn404(() -> ledger.queueWait(from.toString(), to.toString(), "clusterQueue"));
    }

    /** Admission rejections per ClusterQueue among workloads created in [from, to); empty when the ledger answers 404. */
    @Timeout(value = 10, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 10, delayUnit = ChronoUnit.SECONDS)
    public List<ClusterQueue> clusterQueues(Instant from, Instant to) {
        return orEmptyOn404(() -> ledger.clusterQueues(from.toString(), to.toString()));
    }

    /** Fragmentation per node pool at an instant; empty when the ledger answers 404. */
    @Timeout(value = 10, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 10, delayUnit = ChronoUnit.SECONDS)
    public List<FragmentationView.Pool> fragmentationByPool(Instant at) {
        return orEmptyOn404(() -> {
            FragmentationView view = ledger.fragmentation(at.toString(), "pool");
            return view == null ? null : view.groups();
        });
    }

    private static <T> List<T> orEmptyOn404(Supplier<List<T>> call) {
        try {
            List<T> answer = call.get();
            return answer == null ? List.of() : answer;
        } catch (WebApplicationException e) {
            // A ledger without the governance or fragmentation reads has nothing to say about queues: not a failure.
            if (e.getResponse().getStatus() == 404) {
                return List.of();
            }
            throw e;
        }
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
