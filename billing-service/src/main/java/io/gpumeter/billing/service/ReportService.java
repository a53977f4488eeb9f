package io.gpumeter.billing.service;

import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.CapacityLine;
import io.gpumeter.billing.domain.ClosedLine;
import io.gpumeter.billing.domain.ClosedMonth;
import io.gpumeter.billing.domain.CostCalculator;
import io.gpumeter.billing.domain.CostReport;
import io.gpumeter.billing.domain.FineLine;
import io.gpumeter.billing.domain.FineLines;
import io.gpumeter.billing.domain.LineType;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.Normalization;
import io.gpumeter.billing.domain.RateCardTimeline;
import io.gpumeter.billing.domain.Reconciliation;
import io.gpumeter.billing.domain.ReportFormat;
import io.gpumeter.billing.domain.ReportRow;
import io.gpumeter.billing.domain.ReportScope;
import io.gpumeter.billing.domain.Share;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Prices a month or an ISO week of the ledger's allocated and used GPU-hours with the rate cards in force,
 * asking the ledger once per stretch between price changes. A closed month is rendered from its snapshot; an
 * open month also carries, as adjustment lines, what the ledger now says differently about the closed months
 * just before it. On request a report reconciles with fleet capacity: an unallocated line, and optionally each
 * usage line's share of it.
 */
@ApplicationScoped
public class ReportService {

    private final LedgerReadings readings;
    private final RateCardService rateCards;
    private final ClosedBooks books;
    private final Corrections corrections;
    private final ZoneId zone;

    public ReportService(LedgerReadings readings, RateCardService rateCards, ClosedBooks books, Corrections corrections,
                         BillingConfig config) {
        this.readings = readings;
        this.rateCards = rateCards;
        this.books = books;
        this.corrections = corrections;
        this.zone = config.zone();
    }

    /**
     * A period's reconciliation with fleet capacity as its whole-fleet report prints it: {@code printedTotal} is
     * Σ total_cost over the usage lines and the unallocated line, which must equal the capacity cost.
     */
    public record Statement(BillingPeriod period, GroupBy groupBy, Reconciliation reconciliation,
                            BigDecimal adjustmentCost, BigDecimal printedTotal) {

        public boolean reconciles() {
            return reconciliation.reconciles() && printedTotal.compareTo(reconciliation.capacityCost()) == 0;
        }
    }

    /**
     * The cost report of {@code month}, one row per value of {@code groupBy}, limited to {@code scope}: from the
     * snapshot when the month is closed, otherwise from the ledger with adjustments to the closed months before.
     *
     * @param byModel one row per group and GPU model instead of one per group
     * @param share   null for no reconciliation; else the rows carry their share of the unallocated capacity
     *                cost and, for the whole fleet, the unallocated line follows
     * @throws ApiProblem 503 when ledger-service cannot be reached or gives an unusable answer
     */
    public CostReport monthly(YearMonth month, GroupBy groupBy, ReportScope scope, boolean byModel, Share share) {
        return monthlyReconciled(month, groupBy, scope, byModel, share).report();
    }

    /** The cost report of the ISO week that begins on {@code monday}, always from the ledger as it is now. */
    public CostReport weekly(LocalDate monday, GroupBy groupBy, ReportScope scope, boolean byModel, Share share) {
        return weeklyReconciled(monday, groupBy, scope, byModel, share).report();
    }

    /** The reconciliation of a month's whole-fleet report grouped by {@code groupBy}. */
    public Statement monthlyStatement(YearMonth month, GroupBy groupBy, Share share) {
        return statement(monthlyReconciled(month, groupBy, ReportScope.ALL, false, share));
    }

    /** The reconciliation of a week's whole-fleet report grouped by {@code groupBy}. */
    public Statement weeklyStatement(LocalDate monday, GroupBy groupBy, Share share) {
        return statement(weeklyReconciled(monday, groupBy, ReportScope.ALL, false, share));
    }

    private record Reconciled(CostReport report, Reconciliation reconciliation) {
    }

    private Reconciled monthlyReconciled(YearMonth month, GroupBy groupBy, ReportScope scope, boolean byModel,
                                         Share share) {
        ClosedMonth closed = books.find(month.toString());
        Built built = closed != null ? fromSnapshot(closed, groupBy, scope, byModel)
                : liveMonth(month, groupBy, scope, byModel);
        return reconciled(built, () -> closed != null ? fromSnapshot(closed, groupBy, ReportScope.ALL, byModel)
                : liveMonth(month, groupBy, ReportScope.ALL, byModel), closed, groupBy, scope, share);
    }

    private Reconciled weeklyReconciled(LocalDate monday, GroupBy groupBy, ReportScope scope, boolean byModel,
                                        Share share) {
        BillingPeriod period = BillingPeriod.ofWeek(monday, zone);
        return reconciled(live(period, groupBy, scope, byModel), () -> live(period, groupBy, ReportScope.ALL, byModel),
                null, groupBy, scope, share);
    }

    private static Statement statement(Reconciled reconciled) {
        BigDecimal adjustments = BigDecimal.ZERO.setScale(CostCalculator.MONEY_SCALE);
        BigDecimal total = BigDecimal.ZERO.setScale(CostCalculator.MONEY_SCALE);
        for (ReportRow row : reconciled.report().rows()) {
            if (LineType.ADJUSTMENT.label().equals(row.lineType())) {
                adjustments = adjustments.add(row.allocatedCost());
            } else {
                total = total.add(row.totalCost());
            }
        }
        return new Statement(reconciled.report().period(), reconciled.report().groupBy(),
                reconciled.reconciliation(), adjustments, total);
    }

    /** One tenant's allocated cost in a month up to an instant (the whole month once it is closed or over). */
    public record MonthToDate(BillingPeriod period, Instant asOf, BigDecimal cost, boolean closed) {
    }

    /** Every tenant's allocated cost in a month up to an instant, by tenant. */
    public record TenantsToDate(BillingPeriod period, Instant asOf, Map<String, BigDecimal> costs, boolean closed) {
    }

    /**
     * The allocated cost of {@code tenant}'s usage lines in {@code month} over [start, min(asOf, end)); a closed
     * month answers from its snapshot, whole.
     */
    public MonthToDate monthToDate(YearMonth month, ReportScope tenant, Instant asOf) {
        TenantsToDate soFar = tenantsToDate(month, tenant, asOf);
        BigDecimal cost = BigDecimal.ZERO.setScale(CostCalculator.MONEY_SCALE);
        for (BigDecimal c : soFar.costs().values()) {
            cost = cost.add(c);
        }
        return new MonthToDate(soFar.period(), soFar.asOf(), cost, soFar.closed());
    }

    /** Like {@link #monthToDate} for every tenant the scope admits, with one reading of the ledger. */
    public TenantsToDate tenantsToDate(YearMonth month, ReportScope scope, Instant asOf) {
        ClosedMonth closed = books.find(month.toString());
        BillingPeriod period = closed != null ? closed.period() : BillingPeriod.of(month, zone);
        List<ReportRow> rows;
        Instant until = asOf.isAfter(period.endInstant()) ? period.endInstant() : asOf;
        if (closed != null) {
            rows = fromSnapshot(closed, GroupBy.TENANT, scope, false).rows();
            until = period.endInstant();
        } else if (!until.isAfter(period.startInstant())) {
            rows = List.of();
            until = period.startInstant();
        } else {
            BillingPeriod soFar = new BillingPeriod(period.label(), period.start(), until.atZone(zone));
            rows = live(soFar, GroupBy.TENANT, scope, false).rows();
        }
        return new TenantsToDate(period, until, usageCostByGroup(rows), closed != null);
    }

    /**
     * Each tenant's allocated cost over the local day {@code day}, priced as a report prices it, from the ledger as
     * it is now (a closed month's snapshot is not consulted: a cost trend wants the latest facts).
     */
    public Map<String, BigDecimal> dailyCostByTenant(LocalDate day) {
        BillingPeriod period = new BillingPeriod(day.toString(), day.atStartOfDay(zone), day.plusDays(1).atStartOfDay(zone));
        return usageCostByGroup(live(period, GroupBy.TENANT, ReportScope.ALL, false).rows());
    }

    public ZoneId zone() {
        return zone;
    }

    private static Map<String, BigDecimal> usageCostByGroup(List<ReportRow> rows) {
        Map<String, BigDecimal> costs = new TreeMap<>();
        for (ReportRow row : rows) {
            if (row.isUsage()) {
                costs.merge(row.group(), row.allocatedCost(), BigDecimal::add);
            }
        }
        return costs;
    }

    /** A report's rows, the terms they were priced on and the stretches of its period. */
    private record Built(CostCalculator.Terms terms, List<RateCardTimeline.Stretch> stretches, List<ReportRow> rows) {
    }

    private Reconciled reconciled(Built built, Supplier<Built> wholeFleet, ClosedMonth closed, GroupBy groupBy,
                                  ReportScope scope, Share share) {
        BillingPeriod period = built.terms().period();
        if (share == null) {
            return new Reconciled(new CostReport(period, groupBy, scope, built.rows()), null);
        }
        List<ReportRow> fleetRows = (scope.isAll() ? built : wholeFleet.get()).rows().stream()
                .filter(ReportRow::isUsage).toList();
        List<CapacityLine> capacity = closed != null ? books.capacity(closed.label())
                : LedgerReadings.fromLedger("the capacity of " + period.label(), () -> readings.capacity(built.stretches()));
        Reconciliation r = Reconciliation.of(share, built.terms().currency(), built.stretches(), capacity, fleetRows);
        return new Reconciled(new CostReport(period, groupBy, scope,
                r.apply(built.rows(), built.terms(), scope.isAll()), share), r);
    }

    private Built liveMonth(YearMonth month, GroupBy groupBy, ReportScope scope, boolean byModel) {
        Built live = live(BillingPeriod.of(month, zone), groupBy, scope, byModel);
        List<ReportRow> rows = new ArrayList<>(live.rows());
        for (ClosedMonth corrected : corrections.closedRunBefore(month)) {
            rows.addAll(adjustmentRows(live.terms(), corrected, corrections.of(corrected), scope, byModel));
        }
        return new Built(live.terms(), live.stretches(), rows);
    }

    /** The tenant-grouped CSV's hash of a closed month, as a download of it will carry. */
    public String closedCsvSha256(YearMonth month) {
        return new ReportBody(monthly(month, GroupBy.TENANT, ReportScope.ALL, false, null), ReportFormat.CSV).sha256();
    }

    private Built fromSnapshot(ClosedMonth closed, GroupBy groupBy, ReportScope scope, boolean byModel) {
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

    private Built live(BillingPeriod period, GroupBy groupBy, ReportScope scope, boolean byModel) {
        List<RateCardTimeline.Stretch> stretches = rateCards.timeline()
                .split(period.startInstant(), period.endInstant());
        List<CostCalculator.Piece> pieces = new ArrayList<>(stretches.size());
        Normalization normalization = LedgerReadings.fromLedger("the " + period.label() + " report by " + groupBy.dimension(),
                () -> {
                    for (RateCardTimeline.Stretch stretch : stretches) {
                        pieces.add(new CostCalculator.Piece(stretch.card(), readings.usage(stretch, groupBy, scope)));
                    }
                    return readings.normalization();
                });
        CostCalculator.Terms terms = new CostCalculator.Terms(period, groupBy, rateCards.currency(), normalization);
        return new Built(terms, stretches, CostCalculator.price(terms, pieces, byModel).rows());
    }
}
