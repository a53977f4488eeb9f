package io.gpumeter.slo.acceptance;

import io.gpumeter.slo.acceptance.Plan.Metric;
import io.gpumeter.slo.domain.Sli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * From curves to commitments: per cell (one workload under one form), the throughput per GPU measured in the
 * window, less margins for jitter, failures and peaks, at the latency limit the plan's clauses set on that cell.
 */
public final class Commitments {

    /** Headroom kept for governance peaks (bursts of admissions) on top of what the window showed. */
    static final BigDecimal PEAK_MARGIN = new BigDecimal("0.2");
    /** A minute is a jitter minute when its p99 is above this many times the latency limit (SPEC: p99 > 2×SLO). */
    static final double JITTER_FACTOR = 2;
    /** The queue-wait ceiling promised is the window's p95 with this much slack. */
    static final BigDecimal QUEUE_SLACK = new BigDecimal("1.5");

    private Commitments() {
    }

    public static List<Run.Commitment> of(Plan plan, Map<String, CellData> cells, FleetFigures fleet,
                                          List<Run.Outcome> outcomes) {
        List<Run.Commitment> out = new ArrayList<>();
        for (Plan.Cell c : plan.cells()) {
            CellData d = cells.get(c.name());
            Plan.Clause slo = plan.assertions().stream().filter(a -> a.kind() == Plan.Kind.THRESHOLD
                    && c.name().equals(a.cell()) && a.metric().latency() && a.max() != null).findFirst().orElse(null);
            Sli sli = slo == null ? Sli.TTFT : slo.sli();
            Double jitter = null;
            if (slo != null && d.latency().get(sli) != null && !d.latency().get(sli).curve().isEmpty()) {
                var curve = d.latency().get(sli).curve();
                long bad = curve.stream().filter(p -> p.latency().p99Ms() != null
                        && p.latency().p99Ms() > JITTER_FACTOR * slo.max().doubleValue()).count();
                jitter = (double) bad / curve.size();
            }
            Double perGpu = d.throughput() == null || d.gpus() <= 0 ? null : d.throughput() / d.gpus();
            Double failures = d.failureRate();
            BigDecimal committed = null;
            if (perGpu != null) {
                double kept = 1 - (jitter == null ? 0 : jitter) - (failures == null ? 0 : failures)
                        - PEAK_MARGIN.doubleValue();
                committed = round(Math.max(0, perGpu * kept));
            }
            Double p95 = Figures.of(Metric.QUEUE_WAIT_P95, null, d, cells, fleet).value();
            out.add(new Run.Commitment(c.workload(), c.form().name(), c.name(),
                    slo == null ? null : slo.max(), slo == null ? null : sli.name(), round(perGpu),
                    d.gpus() <= 0 ? null : round(d.gpus()), round(jitter), round(failures), PEAK_MARGIN, committed,
                    p95 == null ? null : round(p95 * QUEUE_SLACK.doubleValue()), degradesFirst(c, outcomes)));
        }
        return List.copyOf(out);
    }

    /** The cell's clause with the least headroom (observed over limit, floors inverted) is what gives first. */
    static String degradesFirst(Plan.Cell cell, List<Run.Outcome> outcomes) {
        Run.Outcome worst = null;
        double worstUse = -1;
        for (Run.Outcome o : outcomes) {
            if (!cell.name().equals(o.cell()) || o.observed() == null || o.limit() == null
                    || o.observed().signum() == 0 || o.limit().signum() == 0) {
                continue;
            }
            double use = ">=".equals(o.comparison()) ? o.limit().doubleValue() / o.observed().doubleValue()
                    : o.observed().doubleValue() / o.limit().doubleValue();
            if (use > worstUse) {
                worstUse = use;
                worst = o;
            }
        }
        return worst == null ? null : worst.metric() + (worst.sli() == null ? "" : " " + worst.sli())
                + " (" + Math.round(worstUse * 100) + "% of its limit)";
    }

    static BigDecimal round(Double v) {
        return v == null ? null : BigDecimal.valueOf(v).setScale(Judge.SCALE, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }
}
