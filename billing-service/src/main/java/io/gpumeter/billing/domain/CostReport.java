package io.gpumeter.billing.domain;

import java.util.List;

/**
 * The cost report of one period, one row per value of the grouping dimension, sorted by that value.
 */
public record CostReport(BillingPeriod period, GroupBy groupBy, ReportScope scope, List<ReportRow> rows) {

    public CostReport {
        rows = List.copyOf(rows);
    }

    public CostReport(BillingPeriod period, GroupBy groupBy, List<ReportRow> rows) {
        this(period, groupBy, ReportScope.ALL, rows);
    }

    public List<String> columns() {
        return ReportRow.columns(groupBy);
    }

    /** e.g. gpumeter-tenant-2026-03.csv, gpumeter-team-2026-W10-acme.json */
    public String fileName(ReportFormat format) {
        return "gpumeter-" + groupBy.dimension() + "-" + period.label() + scope.fileNameSuffix() + "."
                + format.extension();
    }
}
