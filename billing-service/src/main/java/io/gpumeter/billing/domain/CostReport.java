package io.gpumeter.billing.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * The cost report of one period, one row per value of the grouping dimension (or per value and GPU model), sorted
 * by that value; then adjustment lines, then, when it reconciles with fleet capacity ({@code share} not null), the
 * unallocated line. {@code energy} is false only for a month closed before its energy was recorded: it prints
 * without the energy columns, so its bytes stay those it was closed with.
 */
public record CostReport(BillingPeriod period, GroupBy groupBy, ReportScope scope, List<ReportRow> rows,
                         Share share, boolean energy) {

    public CostReport {
        rows = List.copyOf(rows);
    }

    public CostReport(BillingPeriod period, GroupBy groupBy, ReportScope scope, List<ReportRow> rows, Share share) {
        this(period, groupBy, scope, rows, share, true);
    }

    public CostReport(BillingPeriod period, GroupBy groupBy, ReportScope scope, List<ReportRow> rows) {
        this(period, groupBy, scope, rows, null);
    }

    public CostReport(BillingPeriod period, GroupBy groupBy, List<ReportRow> rows) {
        this(period, groupBy, ReportScope.ALL, rows, null);
    }

    /** Whether the rows carry the unallocated share and total columns. */
    public boolean reconciled() {
        return share != null;
    }

    public List<String> columns() {
        List<String> columns = new ArrayList<>(ReportRow.columns(groupBy));
        if (reconciled()) {
            columns.addAll(ReportRow.SHARE_COLUMNS);
        }
        if (energy) {
            columns.addAll(ReportRow.ENERGY_COLUMNS);
        }
        return columns;
    }

    /** A row's cells in {@link #columns} order. */
    public List<Object> values(ReportRow row) {
        return row.values(reconciled(), energy);
    }

    /** e.g. gpumeter-tenant-2026-03.csv, gpumeter-team-2026-W10-acme.json, gpumeter-focus-tenant-2026-03.csv */
    public String fileName(ReportFormat format) {
        return "gpumeter-" + format.fileNamePrefix() + groupBy.dimension() + "-" + period.label()
                + scope.fileNameSuffix() + "." + format.extension();
    }
}
