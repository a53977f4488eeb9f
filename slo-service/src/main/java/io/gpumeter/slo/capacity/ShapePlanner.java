package io.gpumeter.slo.capacity;

import io.gpumeter.slo.client.Demand;
import io.gpumeter.slo.client.Supply;

import java.time.LocalDate;
import java.util.List;
import java.util.Locale;

/**
 * Plans one demand shape of a model by the commitment model: its deliverable rule (the latest passing acceptance
 * run's throughput per GPU at the SLO where its service has one, else allocated hours at the target utilization),
 * its forecast, its base cards, and — once the model's margins are known — its stacked cards, gap and commitment.
 */
final class ShapePlanner {

    static final String ACCEPTANCE = "acceptance";
    static final String ALLOCATED_HOURS = "allocated-hours";
    private static final double HOURS_PER_DAY = 24.0;

    /** How plans are made: the horizon, the allocated-hours rule's utilization, the interval's quantile, the floors. */
    record Terms(int horizonDays, double targetUtilization, double z, double jitterFloor, double failuresFloor,
                 double peaksFloor) {
    }

    /**
     * One shape's history over the days its model was in the inventory.
     *
     * @param gpuHours     allocated GPU-hours of each fitted day, scaled to 24 h
     * @param rates        the service's busiest-hour requests per second of each fitted day (null: no service)
     * @param measured     the latest passing run's measurement of the service under the shape's form (null: none)
     */
    record Input(Demand.Shape shape, List<LocalDate> days, double[] gpuHours, double[] rates,
                 Deliverables.Measured measured, CapacityPlan.ServiceRef service, CapacityPlan.SloRef slo) {
    }

    /** The shape's base: its rule, deliverable rate, fitted demand, base cards with their range, jitter margin. */
    record Base(Input input, String rule, double perGpu, String unit, CommitmentModel.Forecast forecast,
                double cards, double low, double high, Margin jitter) {
    }

    private ShapePlanner() {
    }

    static Base base(Input in, Terms terms) {
        boolean acceptance = in.measured() != null && in.rates() != null && in.measured().perGpu() > 0
                && any(in.rates());
        Deliverables.Measured m = in.measured();
        Margin jitter = m == null
                ? MarginRules.jitter(null, null, null, terms.jitterFloor())
                : MarginRules.jitter(m.interferenceFactor(), m.p99SpreadMs(), m.p99Ms(), terms.jitterFloor());
        if (acceptance) {
            CommitmentModel.Forecast f = CommitmentModel.forecast(in.rates(), terms.horizonDays(), terms.z());
            return new Base(in, ACCEPTANCE, m.perGpu(), "requests/s", f, f.point() / m.perGpu(), f.low() / m.perGpu(),
                    f.high() / m.perGpu(), jitter);
        }
        double perCard = HOURS_PER_DAY * terms.targetUtilization();
        CommitmentModel.Forecast f = CommitmentModel.forecast(in.gpuHours(), terms.horizonDays(), terms.z());
        return new Base(in, ALLOCATED_HOURS, perCard, "GPU-hours/day", f, f.point() / perCard, f.low() / perCard,
                f.high() / perCard, jitter);
    }

    /** The shape's commitment once the model's failure and peak margins are known. */
    static CapacityPlan.ShapeCommitment commit(Base b, Margin failures, Margin peaks, Supply.Shape supply,
                                               Double ceilingSeconds, CapacityPlan.Degrade degrade) {
        Input in = b.input();
        CommitmentModel.Stack stack = CommitmentModel.stack(b.cards(), b.jitter(), failures, peaks);
        CommitmentModel.Stack low = CommitmentModel.stack(b.low(), b.jitter(), failures, peaks);
        CommitmentModel.Stack high = CommitmentModel.stack(b.high(), b.jitter(), failures, peaks);
        CapacityPlan.ShapeSupply offered = supply == null ? null
                : new CapacityPlan.ShapeSupply(supply.shape(), supply.kind(), supply.cards(), supply.units(), supply.freeUnits());
        CapacityPlan.Range gap = supply == null ? null : new CapacityPlan.Range(Shares.cards(supply.cards() - stack.total()),
                Shares.cards(supply.cards() - high.total()), Shares.cards(supply.cards() - low.total()));
        return new CapacityPlan.ShapeCommitment(in.shape().workloadClass(), in.shape().classRule(), in.shape().shape(),
                in.shape().kind(), in.service(), in.slo(), b.rule(), deliverable(b, failures, peaks), demand(b),
                new CapacityPlan.Margins(b.jitter(), failures, peaks), stack(stack, low, high), offered, gap,
                ceilingSeconds == null ? null : Shares.figure(ceilingSeconds), degrade);
    }

    static CapacityPlan.Stack stack(CommitmentModel.Stack s, CommitmentModel.Stack low, CommitmentModel.Stack high) {
        return new CapacityPlan.Stack(Shares.cards(s.base()), Shares.cards(s.jitter()), Shares.cards(s.failures()),
                Shares.cards(s.peaks()), Shares.cards(s.total()), Shares.cards(low.total()), Shares.cards(high.total()),
                s.capped());
    }

    private static CapacityPlan.Deliverable deliverable(Base b, Margin failures, Margin peaks) {
        double committed = CommitmentModel.committed(b.perGpu(), b.jitter(), failures, peaks);
        if (ACCEPTANCE.equals(b.rule())) {
            Deliverables.Measured m = b.input().measured();
            String slo = m.sloMs() == null ? "" : " within " + (m.sloSli() == null ? "" : m.sloSli() + " ")
                    + MarginRules.fixed(m.sloMs(), 0) + " ms";
            return new CapacityPlan.Deliverable(Shares.figure(m.perGpu()), Shares.figure(committed),
                    "requests/s per GPU", m.runId(), m.runName(), m.form(), m.to(),
                    "acceptance run '" + m.runName() + "' (#" + m.runId() + "), cell " + m.cell() + ": "
                            + MarginRules.fixed(m.perGpu(), 3) + " requests/s per GPU" + slo + " under " + m.form());
        }
        Deliverables.Measured m = b.input().measured();
        String why = b.input().service() == null || b.input().service().sloService() == null
                ? "no service of slo-service's serves this shape"
                : m == null ? "no run held " + b.input().service().sloService() + "'s latency clauses under "
                + ServiceBook.form(b.input().shape().kind())
                : "run '" + m.runName() + "' (#" + m.runId() + ") measured " + MarginRules.fixed(m.perGpu(), 3)
                + " requests/s per GPU at the SLO, but " + m.service() + " recorded no requests over the days fitted";
        return new CapacityPlan.Deliverable(Shares.figure(b.perGpu()), Shares.figure(committed),
                "GPU-hours per card per day", m == null ? null : m.runId(), m == null ? null : m.runName(),
                m == null ? null : m.form(), m == null ? null : m.to(),
                String.format(Locale.ROOT, "%s: allocated GPU-hours at %.0f%% utilization of a card's 24 h", why,
                        b.perGpu() / HOURS_PER_DAY * 100));
    }

    private static CapacityPlan.DemandView demand(Base b) {
        Input in = b.input();
        CommitmentModel.Forecast f = b.forecast();
        List<LocalDate> days = in.days();
        double[] series = ACCEPTANCE.equals(b.rule()) ? in.rates() : in.gpuHours();
        LocalDate last = days.isEmpty() ? null : days.get(days.size() - 1);
        return new CapacityPlan.DemandView(b.unit(), f.days(), days.isEmpty() ? null : days.get(0).toString(),
                series.length == 0 ? null : Shares.figure(series[series.length - 1]), Shares.figure(f.slopePerDay()),
                f.growthPerWeek() == null ? null : Shares.figure(f.growthPerWeek()), f.trendClear(),
                last == null ? null : last.plusDays(f.aheadDays()).toString(), Shares.figure(f.point()),
                Shares.figure(f.low()), Shares.figure(f.high()), in.shape().pods());
    }

    private static boolean any(double[] values) {
        for (double v : values) {
            if (v > 0) {
                return true;
            }
        }
        return false;
    }
}
