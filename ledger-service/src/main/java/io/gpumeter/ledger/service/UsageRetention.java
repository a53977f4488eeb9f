package io.gpumeter.ledger.service;

import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.repository.RetentionRepository;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;

/**
 * Keeps the usage rollups bounded: minute partitions of days wholly older than the minute retention are folded into
 * hours and dropped, hour partitions of months wholly older than the hour retention are dropped. Allocation segments,
 * facts and the other books are never touched: billing prices closed months from them. What each run folded and
 * dropped is counted on /q/metrics.
 */
@ApplicationScoped
public class UsageRetention {

    private final RetentionRepository repository;
    private final Clock clock;
    private final RetentionSweep sweep;
    private final Counter daysFolded;
    private final Counter minuteRows;
    private final Counter hourRows;
    private final Counter monthsDropped;

    public UsageRetention(RetentionRepository repository, Clock clock, LedgerConfig config, MeterRegistry registry) {
        this.repository = repository;
        this.clock = clock;
        this.sweep = new RetentionSweep("usage", config);
        this.daysFolded = Counter.builder("gpumeter.ledger.retention.minute.partitions.folded")
                .description("Daily usage_minute partitions folded into hours and dropped").register(registry);
        this.minuteRows = Counter.builder("gpumeter.ledger.retention.minute.rows.folded")
                .description("usage_minute rows folded into hours and dropped").register(registry);
        this.hourRows = Counter.builder("gpumeter.ledger.retention.hour.rows.written")
                .description("usage_hour rows written or added to by folding").register(registry);
        this.monthsDropped = Counter.builder("gpumeter.ledger.retention.hour.partitions.dropped")
                .description("Monthly usage_hour partitions dropped past the hour retention").register(registry);
    }

    /** Runs retention as of the clock's now. */
    public Uni<RetentionSweep.Report> run() {
        return run(clock.instant());
    }

    /** Runs retention as of {@code now}: folds and drops what is older than the retentions then. */
    public Uni<RetentionSweep.Report> run(Instant now) {
        return sweep.run(repository, now).invoke(report -> {
            daysFolded.increment(report.daysFolded());
            minuteRows.increment(report.minuteRowsFolded());
            hourRows.increment(report.hourRowsWritten());
            monthsDropped.increment(report.hourMonthsDropped());
        });
    }
}
