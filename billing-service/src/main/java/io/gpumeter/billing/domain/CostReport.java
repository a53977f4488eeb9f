package io.gpumeter.billing.domain;

import java.util.List;

/**
 * The allocated-cost report of one month, one row per value of the grouping dimension, sorted by that value.
 */
public record MonthlyReport(BillingPeriod period, GroupBy groupBy, List<ReportRow> rows) {

    public MonthlyReport {
        rows = List.copyOf(rows);
    }

    public List<String> columns() {
        return ReportRow.columns(groupBy);
    }

    /** e.g. gpumeter-tenant-2026-03.csv */
    public String fileName(ReportFormat format) {
        return "gpumeter-" + groupBy.dimension() + "-" + period.month() + "." + format.extension();
    }
}
