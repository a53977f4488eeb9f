package io.gpumeter.billing.service;

import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.CapacityLine;
import io.gpumeter.billing.domain.ClosedMonth;
import io.gpumeter.billing.domain.CostCalculator;
import io.gpumeter.billing.domain.CostReport;
import io.gpumeter.billing.domain.Energy;
import io.gpumeter.billing.domain.EnergySum;
import io.gpumeter.billing.domain.LineType;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.Reconciliation;
import io.gpumeter.billing.domain.ReportFormat;
import io.gpumeter.billing.domain.ReportRow;
import io.gpumeter.billing.domain.ReportScope;
import io.gpumeter.billing.domain.Share;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.List;
import java.util.function.Supplier;

/**
 * The cost reports of a month or an ISO week of the ledger's allocated and used GPU-hours, priced by
 * {@link ReportPricing}: a closed month is rendered from its snapshot, an open month from the ledger with adjustment
 * lines for the closed months just before it. On request a report reconciles with fleet capacity: an unallocated
 * line, and optionally each usage line's share of it. Cost so far, for budgets and the cost trend, is
 * {@link CostToDate}'s.
 */
@ApplicationScoped
public class ReportService {

    private final LedgerReadings readings;
    private final ClosedBooks books;
    private final ReportPricing pricing;
    private final ZoneId zone;

    public ReportService(LedgerReadings readings, ClosedBooks books, ReportPricing pricing, BillingConfig config) {
        this.readings = readings;
        this.books = books;
        this.pricing = pricing;
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
        ReportPricing.Built built = closed != null ? pricing.fromSnapshot(closed, groupBy, scope, byModel)
                : pricing.liveMonth(month, groupBy, scope, byModel);
        return reconciled(built, () -> closed != null ? pricing.fromSnapshot(closed, groupBy, ReportScope.ALL, byModel)
                : pricing.liveMonth(month, groupBy, ReportScope.ALL, byModel), closed, groupBy, scope, share);
    }

    private Reconciled weeklyReconciled(LocalDate monday, GroupBy groupBy, ReportScope scope, boolean byModel,
                                        Share share) {
        BillingPeriod period = BillingPeriod.ofWeek(monday, zone);
        return reconciled(pricing.live(period, groupBy, scope, byModel),
                () -> pricing.live(period, groupBy, ReportScope.ALL, byModel), null, groupBy, scope, share);
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

    private Reconciled reconciled(ReportPricing.Built built, Supplier<ReportPricing.Built> wholeFleet,
                                  ClosedMonth closed, GroupBy groupBy, ReportScope scope, Share share) {
        BillingPeriod period = built.terms().period();
        // A month closed before energy was recorded keeps the columns, and so the bytes, it was closed with.
        boolean energy = closed == null || closed.energyRecorded();
        if (share == null) {
            return new Reconciled(new CostReport(period, groupBy, scope, built.rows(), null, energy), null);
        }
        List<ReportRow> fleetRows = (scope.isAll() ? built : wholeFleet.get()).rows().stream()
                .filter(ReportRow::isUsage).toList();
        List<CapacityLine> capacity = closed != null ? books.capacity(closed.label())
                : LedgerReadings.fromLedger("the capacity of " + period.label(), () -> readings.capacity(built.stretches()));
        Reconciliation r = Reconciliation.of(share, built.terms().currency(), built.stretches(), capacity, fleetRows);
        // Only a view of the whole fleet prints the unallocated line, and with it the cards' idle energy.
        Energy idle = !scope.isAll() ? Energy.NONE : closed != null
                ? EnergySum.idle(closed.stretches(), books.idleEnergy(closed.label()))
                : LedgerReadings.fromLedger("the idle energy of " + period.label(),
                        () -> EnergySum.idle(built.stretches(), readings.idleEnergy(built.stretches())));
        return new Reconciled(new CostReport(period, groupBy, scope,
                r.apply(built.rows(), built.terms(), scope.isAll(), idle), share, energy), r);
    }

    /** The tenant-grouped CSV's hash of a closed month, as a download of it will carry. */
    public String closedCsvSha256(YearMonth month) {
        return new ReportBody(monthly(month, GroupBy.TENANT, ReportScope.ALL, false, null), ReportFormat.CSV).sha256();
    }

}
