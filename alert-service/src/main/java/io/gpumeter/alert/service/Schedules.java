package io.gpumeter.alert.service;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** The service's two clocks: rule evaluation and outbox delivery. */
@ApplicationScoped
public class Schedules {

    private final EvaluationService evaluation;
    private final OutboxDelivery delivery;

    public Schedules(EvaluationService evaluation, OutboxDelivery delivery) {
        this.evaluation = evaluation;
        this.delivery = delivery;
    }

    @Scheduled(every = "{gpumeter.alert.evaluation.every}", delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> evaluate() {
        return evaluation.evaluate().replaceWithVoid().onFailure().recoverWithNull();
    }

    @Scheduled(every = "{gpumeter.alert.alertmanager.deliver-every}", delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> deliver() {
        return delivery.deliver().replaceWithVoid();
    }
}
