package io.gpumeter.billing.service;

import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.ClosedMonth;
import io.gpumeter.billing.domain.CostCalculator;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.ReportRow;
import io.gpumeter.billing.domain.ReportScope;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Allocated cost so far, by tenant, priced as a report prices it: a month up to an instant for the budgets, a day
 * for the cost trend.
 */
@ApplicationScoped
public class CostToDate {

    private final ClosedBooks books;
    private final ReportPricing pricing;
    private final ZoneId zone;

    public CostToDate(ClosedBooks books, ReportPricing pricing, BillingConfig config) {
        this.books = books;
        this.pricing = pricing;
        this.zone = config.zone();
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
            rows = pricing.fromSnapshot(closed, GroupBy.TENANT, scope, false).rows();
            until = period.endInstant();
        } else if (!until.isAfter(period.startInstant())) {
            rows = List.of();
            until = period.startInstant();
        } else {
            BillingPeriod soFar = new BillingPeriod(period.label(), period.start(), until.atZone(zone));
            rows = pricing.live(soFar, GroupBy.TENANT, scope, false).rows();
        }
        return new TenantsToDate(period, until, usageCostByGroup(rows), closed != null);
    }

    /**
     * Each tenant's allocated cost over the local day {@code day}, priced as a report prices it, from the ledger as
     * it is now (a closed month's snapshot is not consulted: a cost trend wants the latest facts).
     */
    public Map<String, BigDecimal> dailyCostByTenant(LocalDate day) {
        BillingPeriod period = new BillingPeriod(day.toString(), day.atStartOfDay(zone), day.plusDays(1).atStartOfDay(zone));
        return usageCostByGroup(pricing.live(period, GroupBy.TENANT, ReportScope.ALL, false).rows());
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
}
