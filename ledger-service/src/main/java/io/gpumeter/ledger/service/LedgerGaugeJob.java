package io.gpumeter.ledger.service;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Refreshes the ledger gauges on their interval. */
@ApplicationScoped
public class LedgerGaugeJob {

    private final LedgerGauges gauges;

    public LedgerGaugeJob(LedgerGauges gauges) {
        this.gauges = gauges;
    }

    @Scheduled(every = "{gpumeter.ledger.gauges.every}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> refresh() {
        return gauges.refresh();
    }
}
