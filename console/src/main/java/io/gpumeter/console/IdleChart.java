package io.gpumeter.console;

import java.util.List;

/**
 * The Idle page's chart: every group's card-hours stacked by part, the allocated-but-not-busy part drawn as its causes
 * where the ledger gave them, so the bar still adds up to the group's time.
 */
final class IdleChart {

    private static final int NOT_BUSY = 1;

    private IdleChart() {
    }

    static ChartOption option(List<IdleRows.Row> rows) {
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.SHADOW).legend().grid(160, 30, 60, 50)
                .valuesAcross("card-hours", null, null).lanesDown(rows.stream().map(IdleRows.Row::group).toList(), 0);
        for (int p = 0; p < IdleRows.PARTS.size(); p++) {
            if (p == NOT_BUSY) {
                for (int c = 0; c < IdleRows.CAUSES.size(); c++) {
                    chart.series("bar", "not busy: " + IdleRows.CAUSES.get(c), causeData(rows, c)).stack("time")
                            .colour(IdleRows.CAUSE_COLOURS.get(c));
                }
                continue;
            }
            int part = p;
            chart.series("bar", IdleRows.PARTS.get(p).label(), rows.stream().map(r -> r.partHours().get(part).doubleValue()).toList())
                    .stack("time").colour(IdleRows.PARTS.get(p).colour());
        }
        return chart;
    }

    /** A cause's hours per row; a row the ledger gave no causes for is all unexplained. */
    private static List<Double> causeData(List<IdleRows.Row> rows, int cause) {
        boolean unexplained = cause == IdleRows.CAUSES.size() - 1;
        return rows.stream().map(r -> r.causeHours().isEmpty()
                ? (unexplained ? r.partHours().get(NOT_BUSY).doubleValue() : 0.0)
                : r.causeHours().get(cause).doubleValue()).toList();
    }
}
