package io.gpumeter.billing.service;

import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.CapacityLine;
import io.gpumeter.billing.domain.ClosedLine;
import io.gpumeter.billing.domain.ClosedMonth;
import io.gpumeter.billing.domain.FineLine;
import io.gpumeter.billing.domain.IdleEnergy;
import io.gpumeter.billing.domain.LineType;
import io.gpumeter.billing.domain.Normalization;
import io.gpumeter.billing.domain.RateCardTimeline;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Closing a month: its usage and energy at the finest grouping, priced with the cards in force, the adjustments to
 * earlier closed months it carries, each with the rate it was priced at, and the fleet's capacity and idle energy,
 * frozen in the closed books.
 */
@ApplicationScoped
public class MonthClose {

    private final LedgerReadings readings;
    private final RateCardService rateCards;
    private final ClosedBooks books;
    private final Corrections corrections;
    private final ZoneId zone;

    public MonthClose(LedgerReadings readings, RateCardService rateCards, ClosedBooks books, Corrections corrections,
                      BillingConfig config) {
        this.readings = readings;
        this.rateCards = rateCards;
        this.books = books;
        this.corrections = corrections;
        this.zone = config.zone();
    }

    /** What closing a month stored. */
    public record Closing(ClosedMonth month, int usageLines, int adjustmentLines, int capacityLines) {
    }

    /** @throws ApiProblem 409 when the month is closed or has not ended, 503 when the ledger or database fails */
    public Closing close(YearMonth month, Instant now) {
        BillingPeriod period = BillingPeriod.of(month, zone);
        if (period.endInstant().isAfter(now)) {
            throw new ApiProblem(409, "Conflict", "month", "month " + month + " has not ended (it ends at "
                    + period.endText() + "), so it cannot be closed yet");
        }
        if (books.find(month.toString()) != null) {
            throw alreadyClosed(month.toString());
        }
        List<RateCardTimeline.Stretch> stretches = rateCards.timeline()
                .split(period.startInstant(), period.endInstant());
        List<ClosedLine> lines = new ArrayList<>();
        List<BigDecimal> rates = new ArrayList<>();
        Normalization normalization = LedgerReadings.fromLedger("the close of " + month, () -> {
            for (int i = 0; i < stretches.size(); i++) {
                for (FineLine line : readings.fineLines(i, stretches.get(i))) {
                    lines.add(new ClosedLine(LineType.USAGE, month.toString(), line));
                    rates.add(stretches.get(i).card().rateFor(line.key().model()));
                }
            }
            return readings.normalization();
        });
        int usage = lines.size();
        for (ClosedMonth corrected : corrections.closedRunBefore(month)) {
            List<RateCardTimeline.Stretch> theirs = corrected.stretches();
            for (FineLine line : corrections.of(corrected)) {
                lines.add(new ClosedLine(LineType.ADJUSTMENT, corrected.label(), line));
                rates.add(theirs.get(line.stretch()).card().rateFor(line.key().model()));
            }
        }
        List<CapacityLine> capacity = LedgerReadings.fromLedger("the capacity of " + month, () -> readings.capacity(stretches));
        List<IdleEnergy> idle = LedgerReadings.fromLedger("the idle energy of " + month, () -> readings.idleEnergy(stretches));
        ClosedMonth closed = new ClosedMonth(period, rateCards.currency(), normalization, now, stretches, true);
        books.insert(closed, lines, rates, capacity, idle);
        return new Closing(closed, usage, lines.size() - usage, capacity.size());
    }

    static ApiProblem alreadyClosed(String month) {
        return new ApiProblem(409, "Conflict", "month", "month " + month
                + " is already closed; later corrections appear as adjustment lines of the next open month");
    }
}
