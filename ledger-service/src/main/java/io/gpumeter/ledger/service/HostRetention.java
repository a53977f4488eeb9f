package io.gpumeter.ledger.service;

import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.repository.HostRetentionRepository;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;

/**
 * Keeps the host books bounded as usage's are, by the same retentions and on the same interval
 * ({@code gpumeter.ledger.retention.*}): minute partitions of days wholly older than the minute retention are folded
 * into hours and dropped, hour partitions of months wholly older than the hour retention are dropped.
 */
@ApplicationScoped
public class HostRetention {

    private final HostRetentionRepository repository;
    private final Clock clock;
    private final RetentionSweep sweep;
    private final Counter daysFolded;
    private final Counter monthsDropped;

    public HostRetention(HostRetentionRepository repository, Clock clock, LedgerConfig config, MeterRegistry registry) {
        this.repository = repository;
        this.clock = clock;
        this.sweep = new RetentionSweep("host", config);
        this.daysFolded = Counter.builder("gpumeter.ledger.retention.host.days.folded")
                .description("Days of host minute partitions folded into hours and dropped").register(registry);
        this.monthsDropped = Counter.builder("gpumeter.ledger.retention.host.months.dropped")
                .description("Months of host hour partitions dropped past the hour retention").register(registry);
    }

    @Scheduled(every = "{gpumeter.ledger.retention.every}", delayed = "{gpumeter.ledger.retention.delay}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        return run(clock.instant()).replaceWithVoid();
    }

    /** Runs host retention as of {@code now}. */
    public Uni<RetentionSweep.Report> run(Instant now) {
        return sweep.run(repository, now).invoke(report -> {
            daysFolded.increment(report.daysFolded());
            monthsDropped.increment(report.hourMonthsDropped());
        });
    }
}
