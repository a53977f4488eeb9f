package io.gpumeter.slo.acceptance;

import io.gpumeter.slo.acceptance.Plan.Metric;
import io.gpumeter.slo.capacity.CapacityPlan;
import io.gpumeter.slo.capacity.CommitmentModel;
import io.gpumeter.slo.capacity.DegradePolicies;
import io.gpumeter.slo.capacity.FleetMargins;
import io.gpumeter.slo.capacity.Margin;
import io.gpumeter.slo.capacity.MarginRules;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.domain.Sli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * From curves to commitments by the capacity plan's commitment model (docs/adr/0023): per cell (one workload under
 * one form), the throughput per GPU measured in the window at the latency limit the plan's clauses set on that cell,
 * less the three margins — jitter from the cell's own p99 spread and interference factor, failures and maintenance
 * and governance peaks from the ledger's supply and demand over the window — each at least its configured floor.
 */
public final class Commitments {

    /** A minute is a jitter minute when its p99 is above this many times the latency limit (SPEC: p99 > 2×SLO). */
    static final double JITTER_FACTOR = 2;
    /** The queue-wait ceiling promised is the window's p95 with this much slack, as the capacity plan's. */
    static final BigDecimal QUEUE_SLACK = new BigDecimal("1.5");

    private Commitments() {
    }

    public static List<Run.Commitment> of(Plan plan, Map<String, CellData> cells, FleetFigures fleet,
                                          List<Run.Outcome> outcomes, SloConfig.Capacity capacity) {
        SloConfig.Floors floors = capacity.floors();
        Margin failures = FleetMargins.failures(fleet.supply == null ? null : fleet.supply.answer(), floors.failures());
        Margin peaks = FleetMargins.peaks(fleet.demand == null ? null : fleet.demand.answer(), floors.peaks());
        String policy = new DegradePolicies(capacity.degrade(), capacity.degradeShape()).ofClass("inference").policy();
        List<Run.Commitment> out = new ArrayList<>();
        for (Plan.Cell c : plan.cells()) {
            CellData d = cells.get(c.name());
            Plan.Clause slo = latencyClause(plan, c);
            Sli sli = slo == null ? Sli.TTFT : slo.sli();
            Margin jitter = MarginRules.jitter(Figures.of(Metric.INTERFERENCE_FACTOR, null, d, cells, fleet).value(),
                    Figures.of(Metric.P99_SPREAD, sli, d, cells, fleet).value(),
                    Figures.of(Metric.P99, sli, d, cells, fleet).value(), floors.jitter());
            Double perGpu = d.throughput() == null || d.gpus() <= 0 ? null : d.throughput() / d.gpus();
            BigDecimal committed = perGpu == null ? null
                    : round(CommitmentModel.committed(perGpu, jitter, failures, peaks));
            Double p95 = Figures.of(Metric.QUEUE_WAIT_P95, null, d, cells, fleet).value();
            out.add(new Run.Commitment(c.workload(), c.form().name(), c.name(),
                    slo == null ? null : slo.max(), slo == null ? null : sli.name(), round(perGpu),
                    d.gpus() <= 0 ? null : round(d.gpus()), jitter.applied(), failures.applied(), peaks.applied(),
                    committed, p95 == null ? null : round(p95 * QUEUE_SLACK.doubleValue()), degradesFirst(c, outcomes),
                    new CapacityPlan.Margins(jitter, failures, peaks), policy));
        }
        return List.copyOf(out);
    }

    /**
     * The share of a cell's minutes whose p99 exceeded twice the limit of its first latency THRESHOLD clause (null
     * without such a clause or a curve): a figure of the matrix.
     */
    static Double jitterMinuteRate(Plan plan, Plan.Cell c, CellData d) {
        Plan.Clause slo = latencyClause(plan, c);
        if (slo == null || d.latency().get(slo.sli()) == null || d.latency().get(slo.sli()).curve().isEmpty()) {
            return null;
        }
        var curve = d.latency().get(slo.sli()).curve();
        long bad = curve.stream().filter(p -> p.latency().p99Ms() != null
                && p.latency().p99Ms() > JITTER_FACTOR * slo.max().doubleValue()).count();
        return (double) bad / curve.size();
    }

    private static Plan.Clause latencyClause(Plan plan, Plan.Cell c) {
        return plan.assertions().stream().filter(a -> a.kind() == Plan.Kind.THRESHOLD
                && c.name().equals(a.cell()) && a.metric().latency() && a.max() != null).findFirst().orElse(null);
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
