package io.gpumeter.billing.client;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.faulttolerance.api.CircuitBreakerMaintenance;
import io.smallrye.faulttolerance.api.CircuitBreakerState;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The circuit breakers of the ledger calls, for health, and what lets them close again by themselves. A breaker
 * only leaves the open state when a call tries it after its delay; without report traffic it would stay open
 * (and billing degraded) long after the ledger is back, so a breaker that is not closed is tried on an interval
 * with a small, cheap call of its own kind.
 */
@ApplicationScoped
public class LedgerBreakers {

    private static final Logger LOG = Logger.getLogger(LedgerBreakers.class);
    /** The trial calls ask for one minute: nothing a real report depends on. */
    private static final Duration TRIAL_WINDOW = Duration.ofMinutes(1);

    private final CircuitBreakerMaintenance breakers;
    private final LedgerClient ledger;

    private final Clock clock;

    public LedgerBreakers(CircuitBreakerMaintenance breakers, LedgerClient ledger, Clock clock) {
        this.clock = clock;
        this.breakers = breakers;
        this.ledger = ledger;
    }

    /** Each ledger call (gpuHours, capacity, normalization) and the state of its breaker, in a stable order. */
    public Map<String, CircuitBreakerState> states() {
        Map<String, CircuitBreakerState> states = new LinkedHashMap<>();
        states.put("gpuHours", breakers.currentState(LedgerClient.GPU_HOURS));
        states.put("capacity", breakers.currentState(LedgerClient.CAPACITY));
        states.put("normalization", breakers.currentState(LedgerClient.NORMALIZATION));
        return states;
    }

    /** True when every breaker is closed: the ledger answered the last calls well enough. */
    public boolean allClosed() {
        return states().values().stream().allMatch(s -> s == CircuitBreakerState.CLOSED);
    }

    @Scheduled(every = "{gpumeter.billing.ledger.probe-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void tryOpenBreakers() {
        Instant to = clock.instant().truncatedTo(ChronoUnit.MINUTES);
        Instant from = to.minus(TRIAL_WINDOW);
        Map<String, CircuitBreakerState> states = states();
        trial(states.get("gpuHours"), () -> ledger.gpuHours(from, to, "tenant", null, null));
        trial(states.get("capacity"), () -> ledger.capacity(from, to, "model", null));
        trial(states.get("normalization"), ledger::normalization);
    }

    private static void trial(CircuitBreakerState state, Runnable call) {
        if (state == CircuitBreakerState.CLOSED) {
            return;
        }
        try {
            call.run();
        } catch (RuntimeException e) {
            // still failing (or still within the breaker's delay): the next interval tries again
            LOG.debugf("ledger trial call failed: %s", e);
        }
    }
}
