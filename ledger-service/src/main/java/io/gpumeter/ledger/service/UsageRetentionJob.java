package io.gpumeter.ledger.service;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Runs usage retention on its interval. Every replica runs it; the steps' advisory locks and the partitions
 * vanishing once folded make two runs at once do each step once.
 */
@ApplicationScoped
public class UsageRetentionJob {

    private final UsageRetention retention;

    public UsageRetentionJob(UsageRetention retention) {
        this.retention = retention;
    }

    @Scheduled(every = "{gpumeter.ledger.retention.every}", delayed = "{gpumeter.ledger.retention.delay}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> run() {
        return retention.run().replaceWithVoid();
    }
}
