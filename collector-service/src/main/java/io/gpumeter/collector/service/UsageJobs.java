package io.gpumeter.collector.service;

import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;

/** Runs the usage and latency pulls on their intervals. */
@ApplicationScoped
public class UsageJobs {

    private final UsagePulls pulls;
    private final LatencyPulls latency;

    private final Clock clock;

    public UsageJobs(UsagePulls pulls, LatencyPulls latency, Clock clock) {
        this.clock = clock;
        this.pulls = pulls;
        this.latency = latency;
    }

    @Scheduled(every = "{gpumeter.collector.dcgm.scrape-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scrape() {
        pulls.scrapeExporters();
    }

    @Scheduled(every = "{gpumeter.collector.prometheus.interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void pull() {
        pulls.pullPrometheus(clock.instant());
    }

    @Scheduled(every = "{gpumeter.collector.vllm.scrape-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scrapeLatency() {
        latency.scrape(clock.instant());
    }
}
