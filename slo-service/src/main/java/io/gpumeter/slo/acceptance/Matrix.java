package io.gpumeter.slo.acceptance;

import io.gpumeter.slo.acceptance.Plan.Metric;
import io.gpumeter.slo.domain.Sli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The test matrix, workload × form × metric, with the three benchmark classes never in one table: peak (the
 * dedicated cells' health baseline), shareability (p95/p99, interference factor and jitter-minute rate of shared
 * cells) and deliverability (queue wait, failure rate, used/allocated, and allocated, used and idle cost of every
 * cell).
 */
public final class Matrix {

    public static final String PEAK = "peak";
    public static final String SHAREABILITY = "shareability";
    public static final String DELIVERABILITY = "deliverability";

    private Matrix() {
    }

    public static List<Run.MatrixRow> of(Plan plan, Map<String, CellData> cells, FleetFigures fleet,
                                         List<Run.Commitment> commitments) {
        List<Run.MatrixRow> peak = new ArrayList<>();
        List<Run.MatrixRow> share = new ArrayList<>();
        List<Run.MatrixRow> deliver = new ArrayList<>();
        for (Plan.Cell c : plan.cells()) {
            CellData d = cells.get(c.name());
            if (c.form() == Plan.Form.DEDICATED) {
                add(peak, PEAK, d, "TTFT_P50", Figures.of(Metric.P50, Sli.TTFT, d, cells, fleet).value(), "ms");
                add(peak, PEAK, d, "TTFT_P99", Figures.of(Metric.P99, Sli.TTFT, d, cells, fleet).value(), "ms");
                add(peak, PEAK, d, "THROUGHPUT", d.throughput(), "requests/s");
                add(peak, PEAK, d, "TOKENS_PER_S", d.tokensPerSecond(), "tokens/s");
            } else {
                add(share, SHAREABILITY, d, "TTFT_P95", Figures.of(Metric.P95, Sli.TTFT, d, cells, fleet).value(), "ms");
                add(share, SHAREABILITY, d, "TTFT_P99", Figures.of(Metric.P99, Sli.TTFT, d, cells, fleet).value(), "ms");
                add(share, SHAREABILITY, d, "INTERFERENCE_FACTOR",
                        Figures.of(Metric.INTERFERENCE_FACTOR, Sli.TTFT, d, cells, fleet).value(), "x");
                commitments.stream().filter(k -> k.cell().equals(c.name()) && k.jitterMargin() != null).findFirst()
                        .ifPresent(k -> add(share, SHAREABILITY, d, "JITTER_MINUTE_RATE",
                                k.jitterMargin().doubleValue(), "ratio"));
            }
            add(deliver, DELIVERABILITY, d, "QUEUE_WAIT_P50", Figures.of(Metric.QUEUE_WAIT_P50, null, d, cells, fleet).value(), "s");
            add(deliver, DELIVERABILITY, d, "QUEUE_WAIT_P95", Figures.of(Metric.QUEUE_WAIT_P95, null, d, cells, fleet).value(), "s");
            add(deliver, DELIVERABILITY, d, "FAILURE_RATE", d.failureRate(), "ratio");
            add(deliver, DELIVERABILITY, d, "USED_ALLOCATED", Figures.of(Metric.USED_ALLOCATED, null, d, cells, fleet).value(), "ratio");
            String currency = CostFigures.currency(fleet) == null ? "cost" : CostFigures.currency(fleet);
            for (Metric cost : List.of(Metric.ALLOCATED_COST, Metric.USED_COST, Metric.IDLE_COST)) {
                add(deliver, DELIVERABILITY, d, cost.name(), Figures.of(cost, null, d, cells, fleet).value(), currency);
            }
        }
        List<Run.MatrixRow> out = new ArrayList<>(peak);
        out.addAll(share);
        out.addAll(deliver);
        return List.copyOf(out);
    }

    private static void add(List<Run.MatrixRow> rows, String kind, CellData d, String metric, Double value, String unit) {
        rows.add(new Run.MatrixRow(kind, d.cell().workload(), d.cell().form().name(), d.cell().name(), metric,
                value == null ? null : BigDecimal.valueOf(value).setScale(Judge.SCALE, RoundingMode.HALF_EVEN)
                        .stripTrailingZeros(), unit));
    }
}
