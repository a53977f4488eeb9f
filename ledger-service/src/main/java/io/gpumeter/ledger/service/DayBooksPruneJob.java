package io.gpumeter.ledger.service;

import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.repository.DayBooks;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;

/**
 * Keeps the day books small: every replica prunes on the interval; two prunes at once delete the same rows, and a
 * prune never removes a change an answer can still need (DayBooks.prune).
 */
@ApplicationScoped
public class DayBooksPruneJob {

    /** Twice the longest a day's answer may take to be stored (BookedDays.STORE_WITHIN). */
    static final Duration GRACE = BookedDays.STORE_WITHIN.multipliedBy(2);

    private final DayBooks books;
    private final Duration keep;

    public DayBooksPruneJob(DayBooks books, LedgerConfig config) {
        this.books = books;
        this.keep = config.dayBooks().keep();
    }

    @Scheduled(every = "{gpumeter.ledger.day-books.prune-every}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> run() {
        return books.prune(GRACE, keep);
    }
}
