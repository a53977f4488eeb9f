package io.gpumeter.collector.service;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Starts the live watch with the service, retries it, and flushes watched facts to the ledger. */
@ApplicationScoped
public class WatchJobs {

    private final LiveWatch watch;
    private final FactBuffer buffer;

    public WatchJobs(LiveWatch watch, FactBuffer buffer) {
        this.watch = watch;
        this.buffer = buffer;
    }

    void onStart(@Observes StartupEvent event) {
        watch.ensureStarted();
    }

    void onStop(@Observes ShutdownEvent event) {
        watch.stop();
        buffer.flush();
    }

    @Scheduled(every = "{gpumeter.collector.watch.retry-interval}", delayed = "{gpumeter.collector.watch.retry-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void retryWatch() {
        watch.ensureStarted();
    }

    @Scheduled(every = "{gpumeter.collector.delivery.flush-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void flush() {
        buffer.flush();
    }
}
