package io.gpumeter.alert.service;

import io.gpumeter.alert.config.AlertConfig;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.format.DateTimeParseException;

/** The service's two clocks: rule evaluation and outbox delivery. */
@ApplicationScoped
public class Schedules {

    private final EvaluationService evaluation;
    private final OutboxDelivery delivery;
    private final Duration period;

    public Schedules(EvaluationService evaluation, OutboxDelivery delivery, AlertConfig config) {
        this.evaluation = evaluation;
        this.period = period(config.evaluation().every());
        this.delivery = delivery;
    }

    @Scheduled(every = "{gpumeter.alert.evaluation.every}", delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> evaluate() {
        return evaluation.evaluateOnSchedule(period).replaceWithVoid().onFailure().recoverWithNull();
    }

    /** The evaluation period as the scheduler reads it ("60s", "5m", "1h"); zero when it is off or not a duration. */
    static Duration period(String every) {
        try {
            return Duration.parse("PT" + every.trim());
        } catch (DateTimeParseException e) {
            return Duration.ZERO;
        }
    }

    @Scheduled(every = "{gpumeter.alert.alertmanager.deliver-every}", delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> deliver() {
        return delivery.deliver().replaceWithVoid();
    }
}
