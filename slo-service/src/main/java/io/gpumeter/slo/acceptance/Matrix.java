package io.gpumeter.slo.acceptance;

import io.gpumeter.slo.acceptance.Plan.Metric;
import io.gpumeter.slo.domain.Sli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The test matrix, workload × form × metric, each figure in its quadrant and the three benchmark classes never in one
 * table: peak (the dedicated cells' health baseline: TTFT p50/p99, throughput, tokens/s, p99 spread, jitter events),
 * shareability (shared cells: TTFT p95/p99, interference factor, jitter-minute rate, p99 spread, jitter events) and
 * deliverability (every cell: cold start, queue wait, failure rate, MTTR, used/allocated, tokens per joule, and
 * allocated, used and idle cost).
 */
public final class Matrix {

    public static final String PEAK = "peak";
    public static final String SHAREABILITY = "shareability";
    public static final String DELIVERABILITY = "deliverability";

    /** A figure of the matrix alone: the share of a shared cell's minutes whose p99 exceeded twice its latency limit. */
    public static final String JITTER_MINUTE_RATE = "JITTER_MINUTE_RATE";
    public static final Quadrant JITTER_MINUTE_RATE_QUADRANT = Quadrant.STABILITY;
    static final String JITTER_MINUTE_RATE_DEFINITION = "the share of a shared cell's minutes whose p99 exceeded twice"
            + " the limit of the cell's first latency THRESHOLD clause; matrix only";

    private Matrix() {
    }

    public static List<Run.MatrixRow> of(Plan plan, Map<String, CellData> cells, FleetFigures fleet,
                                         List<Run.Commitment> commitments) {
        List<Run.MatrixRow> peak = new ArrayList<>();
        List<Run.MatrixRow> share = new ArrayList<>();
        List<Run.MatrixRow> deliver = new ArrayList<>();
        for (Plan.Cell c : plan.cells()) {
            CellData d = cells.get(c.name());
            Column col = new Column(d, cells, fleet);
            if (c.form() == Plan.Form.DEDICATED) {
                col.add(peak, PEAK, Metric.P50, Sli.TTFT);
                col.add(peak, PEAK, Metric.P99, Sli.TTFT);
                col.add(peak, PEAK, Metric.THROUGHPUT, null);
                col.add(peak, PEAK, Metric.TOKENS_PER_S, null);
                col.add(peak, PEAK, Metric.P99_SPREAD, Sli.TTFT);
                col.add(peak, PEAK, Metric.JITTER_EVENT_RATE, null);
            } else {
                col.add(share, SHAREABILITY, Metric.P95, Sli.TTFT);
                col.add(share, SHAREABILITY, Metric.P99, Sli.TTFT);
                col.add(share, SHAREABILITY, Metric.INTERFERENCE_FACTOR, null);
                Double jitterMinutes = Commitments.jitterMinuteRate(plan, c, d);
                if (jitterMinutes != null) {
                    share.add(row(JITTER_MINUTE_RATE_QUADRANT, SHAREABILITY, d, JITTER_MINUTE_RATE, jitterMinutes, "ratio"));
                }
                col.add(share, SHAREABILITY, Metric.P99_SPREAD, Sli.TTFT);
                col.add(share, SHAREABILITY, Metric.JITTER_EVENT_RATE, null);
            }
            for (Metric m : List.of(Metric.COLD_START, Metric.QUEUE_WAIT_P50, Metric.QUEUE_WAIT_P95,
                    Metric.FAILURE_RATE, Metric.MTTR, Metric.USED_ALLOCATED, Metric.TOKENS_PER_JOULE,
                    Metric.ALLOCATED_COST, Metric.USED_COST, Metric.IDLE_COST)) {
                col.add(deliver, DELIVERABILITY, m, null);
            }
        }
        List<Run.MatrixRow> out = new ArrayList<>(peak);
        out.addAll(share);
        out.addAll(deliver);
        return List.copyOf(out);
    }

    /** One cell's figures, each named by its metric (an SLI's before it) and in the metric's quadrant and unit. */
    private record Column(CellData d, Map<String, CellData> cells, FleetFigures fleet) {

        void add(List<Run.MatrixRow> rows, String kind, Metric metric, Sli sli) {
            String unit = metric.unit();
            if ("cost".equals(unit) && CostFigures.currency(fleet) != null) {
                unit = CostFigures.currency(fleet);
            }
            rows.add(row(metric.quadrant(), kind, d, sli == null ? metric.name() : sli + "_" + metric,
                    Figures.of(metric, sli, d, cells, fleet).value(), unit));
        }
    }

    private static Run.MatrixRow row(Quadrant quadrant, String kind, CellData d, String metric, Double value,
                                     String unit) {
        return new Run.MatrixRow(quadrant.name(), kind, d.cell().workload(), d.cell().form().name(), d.cell().name(),
                metric, value == null ? null : BigDecimal.valueOf(value).setScale(Judge.SCALE, RoundingMode.HALF_EVEN)
                .stripTrailingZeros(), unit);
    }
}
