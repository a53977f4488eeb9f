package io.gpumeter.ledger.service;

import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.repository.RetentionBooks;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * One retention run over partitioned books, by the retentions of {@code gpumeter.ledger.retention.*}: minute
 * partitions of days wholly older than the minute retention are folded into hours and dropped, then hour partitions
 * of months wholly older than the hour retention are dropped, one step after the other.
 */
public final class RetentionSweep {

    private static final Logger LOG = Logger.getLogger(RetentionSweep.class);

    /** What one run did. */
    public record Report(int daysFolded, long minuteRowsFolded, long hourRowsWritten, int hourMonthsDropped) {
    }

    private final String books;
    private final Duration minutes;
    private final Duration hours;

    /** @param books what the log calls the books swept, e.g. "usage" */
    RetentionSweep(String books, LedgerConfig config) {
        this.books = books;
        this.minutes = config.retention().minutes();
        // Hours are never dropped before the minutes they replace.
        this.hours = config.retention().hours().compareTo(minutes) < 0 ? minutes : config.retention().hours();
    }

    /** Folds and drops what of {@code repository} is older than the retentions as of {@code now}. */
    Uni<Report> run(RetentionBooks repository, Instant now) {
        LocalDate minuteCutoff = LocalDate.ofInstant(now.minus(minutes), ZoneOffset.UTC);
        YearMonth hourCutoff = YearMonth.from(LocalDate.ofInstant(now.minus(hours), ZoneOffset.UTC));
        Uni<List<RetentionBooks.Folded>> folded = repository.minuteDays()
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

    private Report report(List<RetentionBooks.Folded> days, int months) {
        long minuteRows = days.stream().mapToLong(RetentionBooks.Folded::minuteRows).sum();
        long hourRows = days.stream().mapToLong(RetentionBooks.Folded::hourRows).sum();
        if (!days.isEmpty() || months > 0) {
            LOG.infof("%s retention: folded %d days (%d minute rows into %d hour rows), dropped %d hour months",
                    books, days.size(), minuteRows, hourRows, months);
        }
        return new Report(days.size(), minuteRows, hourRows, months);
    }
}
