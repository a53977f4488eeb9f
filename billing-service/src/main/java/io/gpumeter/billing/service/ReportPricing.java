package io.gpumeter.billing.service;

import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.ClosedLine;
import io.gpumeter.billing.domain.ClosedMonth;
import io.gpumeter.billing.domain.CostCalculator;
import io.gpumeter.billing.domain.FineLine;
import io.gpumeter.billing.domain.FineLines;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.LineType;
import io.gpumeter.billing.domain.Normalization;
import io.gpumeter.billing.domain.RateCardTimeline;
import io.gpumeter.billing.domain.ReportRow;
import io.gpumeter.billing.domain.ReportScope;
import io.gpumeter.billing.domain.TimeBucket;
import io.gpumeter.billing.domain.UsageLine;
import jakarta.inject.Singleton;

import java.time.YearMonth;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prices a period's rows, the one way every report and every cost-to-date figure is priced: live from the ledger
 * with the rate cards in force, asking the ledger once per stretch between price changes, or from a closed month's
 * snapshot. A live month also carries, as adjustment lines, what the ledger now says differently about the closed
 * months just before it.
 */
@Singleton
class ReportPricing {

    private final LedgerReadings readings;
    private final RateCardService rateCards;
    private final ClosedBooks books;
    private final Corrections corrections;
    private final ZoneId zone;

    ReportPricing(LedgerReadings readings, RateCardService rateCards, ClosedBooks books, Corrections corrections,
                  BillingConfig config) {
        this.readings = readings;
        this.rateCards = rateCards;
        this.books = books;
        this.corrections = corrections;
        this.zone = config.zone();
    }

    /** A report's rows, the terms they were priced on and the stretches of its period. */
    record Built(CostCalculator.Terms terms, List<RateCardTimeline.Stretch> stretches, List<ReportRow> rows) {
    }

    Built live(BillingPeriod period, GroupBy groupBy, ReportScope scope, boolean byModel) {
        List<RateCardTimeline.Stretch> stretches = rateCards.timeline()
                .split(period.startInstant(), period.endInstant());
        LedgerReadings.PerStretch<List<UsageLine>> read = LedgerReadings.fromLedger("the " + period.label()
                + " report by " + groupBy.dimension(), () -> readings.atOnce(stretches, s -> readings.usage(s, groupBy, scope)));
        List<CostCalculator.Piece> pieces = new ArrayList<>(stretches.size());
        for (int i = 0; i < stretches.size(); i++) {
            pieces.add(new CostCalculator.Piece(stretches.get(i).card(), read.answers().get(i)));
        }
        Normalization normalization = read.normalization();
        CostCalculator.Terms terms = new CostCalculator.Terms(period, groupBy, rateCards.currency(), normalization);
        return new Built(terms, stretches, CostCalculator.price(terms, pieces, byModel).rows());
    }

    /**
     * A period's rows in each of its {@code buckets} (labelled as the ledger labels {@code unit}), priced as
     * {@link #live} prices a period: one ledger read per stretch between price changes, split by the ledger at the
     * zone's local midnights; a bucket's hours are priced with the card of the stretch they fell in.
     */
    Map<BillingPeriod, List<ReportRow>> liveByBucket(BillingPeriod period, TimeBucket unit, List<BillingPeriod> buckets,
                                                      GroupBy groupBy, ReportScope scope) {
        List<RateCardTimeline.Stretch> stretches = rateCards.timeline().split(period.startInstant(), period.endInstant());
        LedgerReadings.PerStretch<Map<String, List<UsageLine>>> read = LedgerReadings.fromLedger("the " + period.label()
                + " cost per " + unit.label(), () -> readings.atOnce(stretches, s -> readings.usageByBucket(s, groupBy, scope, unit, zone)));
        List<Map<String, List<UsageLine>>> byStretch = read.answers();
        Normalization normalization = read.normalization();
        Map<BillingPeriod, List<ReportRow>> out = new LinkedHashMap<>();
        for (BillingPeriod bucket : buckets) {
            List<CostCalculator.Piece> pieces = new ArrayList<>(stretches.size());
            for (int i = 0; i < stretches.size(); i++) {
                pieces.add(new CostCalculator.Piece(stretches.get(i).card(),
                        byStretch.get(i).getOrDefault(bucket.label(), List.of())));
            }
            CostCalculator.Terms terms = new CostCalculator.Terms(bucket, groupBy, rateCards.currency(), normalization);
            out.put(bucket, CostCalculator.price(terms, pieces, false).rows());
        }
        return out;
    }

    String currency() {
        return rateCards.currency();
    }

    Built liveMonth(YearMonth month, GroupBy groupBy, ReportScope scope, boolean byModel) {
        Built live = live(BillingPeriod.of(month, zone), groupBy, scope, byModel);
        List<ReportRow> rows = new ArrayList<>(live.rows());
        for (ClosedMonth corrected : corrections.closedRunBefore(month)) {
            rows.addAll(adjustmentRows(live.terms(), corrected, corrections.of(corrected), scope, byModel));
        }
        return new Built(live.terms(), live.stretches(), rows);
    }

    Built fromSnapshot(ClosedMonth closed, GroupBy groupBy, ReportScope scope, boolean byModel) {
        CostCalculator.Terms terms = new CostCalculator.Terms(closed.period(), groupBy, closed.currency(),
                closed.normalization());
        List<FineLine> usage = new ArrayList<>();
        Map<String, List<FineLine>> adjustments = new TreeMap<>(); // month labels sort in time order
        for (ClosedLine line : books.lines(closed.label())) {
            if (line.type() == LineType.USAGE) {
                usage.add(line.line());
            } else {
                adjustments.computeIfAbsent(line.corrects(), m -> new ArrayList<>()).add(line.line());
            }
        }
        List<ReportRow> rows = new ArrayList<>(FineLines.price(terms, closed.stretches(), usage, scope, byModel));
        adjustments.forEach((corrected, lines) ->
                rows.addAll(adjustmentRows(terms, books.find(corrected), lines, scope, byModel)));
        return new Built(terms, closed.stretches(), rows);
    }

    private static List<ReportRow> adjustmentRows(CostCalculator.Terms terms, ClosedMonth corrected,
                                                  List<FineLine> delta, ReportScope scope, boolean byModel) {
        // A difference too small to print (under a millionth of an hour and a cent) would be a line of zeros.
        return FineLines.price(terms, corrected.stretches(), delta, scope, byModel).stream()
                .filter(row -> !row.printsAsZero())
                .map(row -> row.asAdjustmentOf(corrected.period()))
                .toList();
    }
}
