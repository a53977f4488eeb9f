package io.gpumeter.alert.service;

import io.gpumeter.alert.repository.OutboxRepository;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The service's own meters: the outbox backlog (alerts Alertmanager has not accepted yet, and the age of the oldest),
 * deliveries by outcome, and runbook actions by action and result. Tags are fixed values only.
 */
@ApplicationScoped
public class AlertMetrics {

    private static final Logger LOG = Logger.getLogger(AlertMetrics.class);

    private final MeterRegistry registry;
    private final OutboxRepository outbox;
    private final AtomicLong backlog = new AtomicLong();
    private final AtomicLong oldestSeconds = new AtomicLong();
    private final Clock clock;

    public AlertMetrics(MeterRegistry registry, OutboxRepository outbox, Clock clock) {
        this.clock = clock;
        this.registry = registry;
        this.outbox = outbox;
        Gauge.builder("gpumeter.alert.outbox.alerts", backlog, AtomicLong::get)
                .description("Alerts waiting for Alertmanager to accept them").register(registry);
        Gauge.builder("gpumeter.alert.outbox.oldest.seconds", oldestSeconds, AtomicLong::get)
                .description("Age of the oldest alert waiting for Alertmanager").baseUnit("seconds").register(registry);
    }

    /** Re-reads the backlog; a failed read keeps the previous values. */
    public Uni<Void> refresh() {
        return outbox.backlog().invoke(b -> {
                    backlog.set(b.alerts());
                    oldestSeconds.set(b.oldest() == null ? 0 : Math.max(0, Duration.between(b.oldest(), clock.instant()).toSeconds()));
                })
                .replaceWithVoid()
                .onFailure().invoke(e -> LOG.warn("outbox backlog not read", e))
                .onFailure().recoverWithNull();
    }

    public long backlog() {
        return backlog.get();
    }

    public void delivery(boolean ok, int alerts) {
        Counter.builder("gpumeter.alert.delivery.alerts").description("Alerts posted to Alertmanager, by outcome")
                .tag("outcome", ok ? "accepted" : "failed").register(registry).increment(alerts);
    }

    /**
     * A scheduled evaluation: {@code ran} here, skipped because {@code another-replica} held the evaluation lock, or
     * skipped because the period was {@code already-evaluated} (by another replica, or on request).
     */
    public void evaluation(String outcome) {
        Counter.builder("gpumeter.alert.evaluations").description("Scheduled rule evaluations, by whether this replica ran them")
                .tag("outcome", outcome).register(registry).increment();
    }

    /** A resolve whose labels differ from those its alert fired with. */
    public void refusedResolve() {
        Counter.builder("gpumeter.alert.webhook.refused").description("Webhook alerts refused, by reason")
                .tag("reason", "resolve-labels-differ").register(registry).increment();
    }

    public void action(String action, String result) {
        Counter.builder("gpumeter.alert.actions").description("Runbook actions, by action and result")
                .tag("action", action).tag("result", result).register(registry).increment();
    }
}
