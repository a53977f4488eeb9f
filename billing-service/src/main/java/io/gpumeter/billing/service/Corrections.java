package io.gpumeter.billing.service;

import io.gpumeter.billing.domain.ClosedMonth;
import io.gpumeter.billing.domain.FineLine;
import io.gpumeter.billing.domain.FineLines;
import io.gpumeter.billing.domain.RateCardTimeline;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Late corrections to closed months: which closed months an open month carries adjustments for, and what the
 * ledger now says differently about each. Reports and the month close both ask here, so they never disagree.
 */
@ApplicationScoped
public class Corrections {

    private final LedgerReadings readings;
    private final ClosedBooks books;

    public Corrections(LedgerReadings readings, ClosedBooks books) {
        this.readings = readings;
        this.books = books;
    }

    /**
     * The closed months whose corrections belong in {@code month}: the unbroken run of closed months right before
     * it, oldest first. A closed month followed by an open one hands its corrections to that one instead.
     */
    public List<ClosedMonth> closedRunBefore(YearMonth month) {
        Set<String> closed = books.months();
        List<ClosedMonth> run = new ArrayList<>();
        for (YearMonth m = month.minusMonths(1); closed.contains(m.toString()); m = m.minusMonths(1)) {
            run.add(0, books.find(m.toString()));
        }
        return run;
    }

    /**
     * What the ledger now says about a closed month minus everything billed for it so far. A month closed before
     * its energy was recorded billed none, and its energy is no correction: it is left out.
     */
    public List<FineLine> of(ClosedMonth corrected) {
        return LedgerReadings.fromLedger("the adjustments to " + corrected.label(), () -> {
            List<RateCardTimeline.Stretch> stretches = corrected.stretches();
            List<FineLine> now = new ArrayList<>();
            for (int i = 0; i < stretches.size(); i++) {
                for (FineLine line : readings.fineLines(i, stretches.get(i))) {
                    now.add(corrected.energyRecorded() ? line : line.withoutEnergy());
                }
            }
            return FineLines.difference(now, books.billed(corrected.label()));
        });
    }
}
