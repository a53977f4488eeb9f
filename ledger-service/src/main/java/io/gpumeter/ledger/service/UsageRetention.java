package io.gpumeter.ledger.service;

import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.repository.RetentionRepository;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * Keeps the usage rollups bounded: minute partitions of days wholly older than the minute retention are folded into
 * hours and dropped, hour partitions of months wholly older than the hour retention are dropped. Allocation segments,
 * facts and the other books are never touched: billing prices closed months from them. What each run folded and
 * dropped is counted on /q/metrics.
 */
@ApplicationScoped
public class UsageRetention {

    private static final Logger LOG = Logger.getLogger(UsageRetention.class);

    /** What one run did. */
    public record Report(int daysFolded, long minuteRowsFolded, long hourRowsWritten, int hourMonthsDropped) {
    }

    private final RetentionRepository repository;
    private final Clock clock;
    private final Duration minutes;
    private final Duration hours;
    private final Counter daysFolded;
    private final Counter minuteRows;
    private final Counter hourRows;
    private final Counter monthsDropped;

    public UsageRetention(RetentionRepository repository, Clock clock, LedgerConfig config, MeterRegistry registry) {
        this.repository = repository;
        this.clock = clock;
        this.minutes = config.retention().minutes();
        // Hours are never dropped before the minutes they replace.
        this.hours = config.retention().hours().compareTo(minutes) < 0 ? minutes : config.retention().hours();
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
    public Uni<Report> run() {
        return run(clock.instant());
    }

    /** Runs retention as of {@code now}: folds and drops what is older than the retentions then. */
    public Uni<Report> run(Instant now) {
        LocalDate minuteCutoff = LocalDate.ofInstant(now.minus(minutes), ZoneOffset.UTC);
        YearMonth hourCutoff = YearMonth.from(LocalDate.ofInstant(now.minus(hours), ZoneOffset.UTC));
        Uni<List<RetentionRepository.Folded>> folded = repository.minuteDays()
                .map(days -> days.stream().filter(d -> d.isBefore(minuteCutoff)).toList())
                .onItem().transformToMulti(days -> Multi.createFrom().iterable(days))
                .onItem().transformToUniAndConcatenate(repository::foldDay)
                .filter(Optional::isPresent).map(Optional::get)
                .collect().asList();
        Uni<Integer> dropped = repository.hourMonths()
                .map(months -> months.stream().filter(m -> m.isBefore(hourCutoff)).toList())
                .onItem().transformToMulti(months -> Multi.createFrom().iterable(months))
                .onItem().transformToUniAndConcatenate(repository::dropHourMonth)
                .filter(Boolean::booleanValue)
                .collect().asList().map(List::size);
        return folded.chain(days -> dropped.map(months -> report(days, months)));
    }

    private Report report(List<RetentionRepository.Folded> days, int months) {
        long minuteRowCount = days.stream().mapToLong(RetentionRepository.Folded::minuteRows).sum();
        long hourRowCount = days.stream().mapToLong(RetentionRepository.Folded::hourRows).sum();
        daysFolded.increment(days.size());
        minuteRows.increment(minuteRowCount);
        hourRows.increment(hourRowCount);
        monthsDropped.increment(months);
        if (!days.isEmpty() || months > 0) {
            LOG.infof("usage retention: folded %d days (%d minute rows into %d hour rows), dropped %d hour months",
                    days.size(), minuteRowCount, hourRowCount, months);
        }
        return new Report(days.size(), minuteRowCount, hourRowCount, months);
    }
}
