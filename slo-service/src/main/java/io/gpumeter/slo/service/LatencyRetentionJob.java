package io.gpumeter.slo.service;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Runs latency retention on its interval; a failed run is logged and the next one carries on where it stopped. */
@ApplicationScoped
public class LatencyRetentionJob {

    private final LatencyRetention retention;

    public LatencyRetentionJob(LatencyRetention retention) {
        this.retention = retention;
    }

    @Scheduled(every = "{gpumeter.slo.retention.every}", delayed = "{gpumeter.slo.retention.delay}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> run() {
        return retention.run().replaceWithVoid().onFailure().recoverWithNull();
    }
}
