package io.gpumeter.collector.service;

import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;

/** Runs the host scrapes and the host pull from Prometheus on their intervals ("off" stops each). */
@ApplicationScoped
public class HostJobs {

    private final HostPulls pulls;
    private final Clock clock;

    public HostJobs(HostPulls pulls, Clock clock) {
        this.pulls = pulls;
        this.clock = clock;
    }

    @Scheduled(every = "{gpumeter.collector.host.kubelet.scrape-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scrapeKubelets() {
        pulls.scrapeKubelets();
    }

    @Scheduled(every = "{gpumeter.collector.host.node-exporter.scrape-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scrapeNodeExporters() {
        pulls.scrapeNodeExporters();
    }

    @Scheduled(every = "{gpumeter.collector.host.prometheus.interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void pullPrometheus() {
        pulls.pullPrometheus(clock.instant());
    }
}
