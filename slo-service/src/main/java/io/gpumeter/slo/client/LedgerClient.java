package io.gpumeter.slo.client;

import io.gpumeter.common.client.Answers;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Calls ledger-service with a timeout, retries and a circuit breaker. A 404 is handled inside the breaker: an
 * unknown card or pod is an answer ("nothing held"), not a failing ledger.
 */
@ApplicationScoped
@Timeout
@Retry
@CircuitBreaker
public class LedgerClient {

    private final LedgerRestClient ledger;

    public LedgerClient(@RestClient LedgerRestClient ledger) {
        this.ledger = ledger;
    }

    /** The units (and so the GPUs) a pod held at an instant; empty when it held none. */
    public Uni<List<Occupant>> podOccupants(String namespace, String pod, Instant at) {
        return ledger.podOccupants(namespace, pod, at.toString()).map(LedgerClient::orEmpty)
                .onFailure(Answers::notFound).recoverWithItem(List.of());
    }

    /** Q1: every unit of a card held at an instant; empty for a card the ledger does not know. */
    public Uni<List<Occupant>> gpuOccupants(String gpuUuid, Instant at) {
        return ledger.gpuOccupants(gpuUuid, at.toString()).map(LedgerClient::orEmpty)
                .onFailure(Answers::notFound).recoverWithItem(List.of());
    }

    /**
     * The scheduling decision of a pod, for the queues it went through; empty when the ledger holds no scheduling
     * record of it (a 404), which is not the same as a pod that went through no queue ({@code queue} null).
     */
    public Uni<Optional<SchedulingDecision>> podDecision(String namespace, String pod) {
        return ledger.podDecision(namespace, pod).map(Optional::ofNullable)
                .onFailure(Answers::notFound).recoverWithItem(Optional.empty());
    }

    /** Every usage series of a card, per minute, over [from, to). */
    public Uni<List<UsagePoint>> usage(String gpuUuid, Instant from, Instant to) {
        return ledger.usage(gpuUuid, from.toString(), to.toString()).map(LedgerClient::orEmpty)
                .onFailure(Answers::notFound).recoverWithItem(List.of());
    }

    private static <T> List<T> orEmpty(List<T> rows) {
        return rows == null ? List.of() : rows;
    }
}
