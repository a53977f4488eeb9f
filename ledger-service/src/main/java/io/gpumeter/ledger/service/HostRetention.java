package io.gpumeter.ledger.service;

import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.repository.HostRetentionRepository;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
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
 * Keeps the host books bounded as usage's are, by the same retentions and on the same interval
 * ({@code gpumeter.ledger.retention.*}): minute partitions of days wholly older than the minute retention are folded
 * into hours and dropped, hour partitions of months wholly older than the hour retention are dropped.
 */
@ApplicationScoped
public class HostRetention {

    private static final Logger LOG = Logger.getLogger(HostRetention.class);

    /** What one run did. */
    public record Report(int daysFolded, long minuteRowsFolded, long hourRowsWritten, int hourMonthsDropped) {
    }

    private final HostRetentionRepository repository;
    private final Clock clock;
    private final Duration minutes;
    private final Duration hours;
    private final Counter daysFolded;
    private final Counter monthsDropped;

    public HostRetention(HostRetentionRepository repository, Clock clock, LedgerConfig config, MeterRegistry registry) {
        this.repository = repository;
        this.clock = clock;
        this.minutes = config.retention().minutes();
        this.hours = config.retention().hours().compareTo(minutes) < 0 ? minutes : config.retention().hours();
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
    public Uni<Report> run(Instant now) {
        LocalDate minuteCutoff = LocalDate.ofInstant(now.minus(minutes), ZoneOffset.UTC);
        YearMonth hourCutoff = YearMonth.from(LocalDate.ofInstant(now.minus(hours), ZoneOffset.UTC));
        Uni<List<HostRetentionRepository.Folded>> folded = repository.minuteDays()
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
        return folded.chain(days -> dropped.map(months -> {
            long minuteRows = days.stream().mapToLong(HostRetentionRepository.Folded::minuteRows).sum();
            long hourRows = days.stream().mapToLong(HostRetentionRepository.Folded::hourRows).sum();
            daysFolded.increment(days.size());
            monthsDropped.increment(months);
            if (!days.isEmpty() || months > 0) {
                LOG.infof("host retention: folded %d days (%d minute rows into %d hour rows), dropped %d hour months",
                        days.size(), minuteRows, hourRows, months);
            }
            return new Report(days.size(), minuteRows, hourRows, months);
        }));
    }
}
