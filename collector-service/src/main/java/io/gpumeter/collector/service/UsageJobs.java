package io.gpumeter.collector.service;

import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;

/** Runs the usage pulls on their intervals. */
@ApplicationScoped
public class UsageJobs {

    private final UsagePulls pulls;

    public UsageJobs(UsagePulls pulls) {
        this.pulls = pulls;
    }

    @Scheduled(every = "{gpumeter.collector.dcgm.scrape-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scrape() {
        pulls.scrapeExporters();
    }

    @Scheduled(every = "{gpumeter.collector.prometheus.interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void pull() {
        pulls.pullPrometheus(Instant.now());
    }
}
