package io.gpumeter.ledger.governance.service;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Derives again, on its interval, the nodes whose MIG views disagree and are due ({@link MigBooks#recheckDue}): a
 * grace runs out, or an instance dcgm-exporter stopped reporting stops counting, without any new fact. Every replica
 * runs it; each cluster's governance lock makes two runs at once derive a node one after the other, to the same rows.
 */
@ApplicationScoped
public class MigRecheckJob {

    private final MigBooks books;

    public MigRecheckJob(MigBooks books) {
        this.books = books;
    }

    @Scheduled(every = "{gpumeter.ledger.mig.recheck-every}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> run() {
        return books.recheckDue().replaceWithVoid();
    }
}
