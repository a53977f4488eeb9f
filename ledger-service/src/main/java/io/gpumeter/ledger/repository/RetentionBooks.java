package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Uni;

import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import java.util.Optional;

/**
 * Books kept in daily minute partitions folded into monthly hour partitions: what a retention run asks of them. Each
 * step takes the retention lock and finds its partition gone when another replica did it first.
 */
public interface RetentionBooks {

    /** What folding one day did: minute rows read and hour rows written or added to. */
    record Folded(LocalDate day, long minuteRows, long hourRows) {
    }

    /** The days that have a minute partition, oldest first. */
    Uni<List<LocalDate>> minuteDays();

    /** The months that have an hour partition, oldest first. */
    Uni<List<YearMonth>> hourMonths();

    /** Folds one day into hours and drops its minute partitions; empty when they are already gone. */
    Uni<Optional<Folded>> foldDay(LocalDate day);

    /** Drops one month's hour partitions; false when they are already gone. */
    Uni<Boolean> dropHourMonth(YearMonth month);
}
