package io.gpumeter.slo.capacity;

import io.gpumeter.slo.client.Demand;
import io.gpumeter.slo.client.Supply;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Plans one GPU model: its shapes' bases, the model's failure and peak margins (the peak margin needs the shapes'
 * base cards), each shape's commitment, the cards needed stacked over the shapes, and the gap to usable cards.
 */
final class ModelPlanner {

    /** A model's queue-wait ceiling is the median of its daily queue-wait p95s with this much slack. */
    static final double QUEUE_SLACK = 1.5;

    private ModelPlanner() {
    }

    static CapacityPlan.ModelCommitment plan(String model, Supply.Model supply, List<ShapePlanner.Input> shapes,
                                             Demand.Peak peak, ShapePlanner.Terms terms,
                                             Function<Demand.Shape, CapacityPlan.Degrade> degrade) {
        List<ShapePlanner.Base> bases = shapes.stream().map(s -> ShapePlanner.base(s, terms)).toList();
        double baseCards = bases.stream().mapToDouble(ShapePlanner.Base::cards).sum();
        Margin failures = failures(supply, terms);
        Demand.Pending pending = peak == null ? null : peak.pending();
        Demand.QueueWait waits = peak == null ? null : peak.queueWaitP95Seconds();
        Margin peaks = MarginRules.peaks(pending == null ? null : number(pending.meanGpusAtBusiestHour()),
                pending == null ? null : pending.busiestHourOfDay(), baseCards,
                waits == null ? null : number(waits.peak()), terms.peaksFloor());
        Double ceiling = waits == null || waits.median() == null ? null : waits.median().doubleValue() * QUEUE_SLACK;

        List<CapacityPlan.ShapeCommitment> out = new ArrayList<>();
        double[] sum = new double[7]; // base, jitter, failures, peaks, total, low, high
        boolean capped = false;
        for (ShapePlanner.Base b : bases) {
            CapacityPlan.ShapeCommitment c = ShapePlanner.commit(b, failures, peaks, offered(supply, b.input().shape()),
                    ceiling, degrade.apply(b.input().shape()));
            out.add(c);
            CapacityPlan.Stack s = c.cardsNeeded();
            BigDecimal[] parts = {s.base(), s.jitter(), s.failures(), s.peaks(), s.total(), s.low(), s.high()};
            for (int i = 0; i < parts.length; i++) {
                sum[i] += parts[i].doubleValue();
            }
            capped |= s.capped();
        }
        CapacityPlan.Stack needed = new CapacityPlan.Stack(Shares.cards(sum[0]), Shares.cards(sum[1]),
                Shares.cards(sum[2]), Shares.cards(sum[3]), Shares.cards(sum[4]), Shares.cards(sum[5]),
                Shares.cards(sum[6]), capped);
        int usable = supply == null || supply.end() == null ? 0 : supply.end().usable();
        CapacityPlan.Range gap = new CapacityPlan.Range(Shares.cards(usable - sum[4]), Shares.cards(usable - sum[6]),
                Shares.cards(usable - sum[5]));
        CapacityPlan.Margins margins = new CapacityPlan.Margins(modelJitter(bases, terms), failures, peaks);
        return new CapacityPlan.ModelCommitment(model, supply == null ? List.of(model) : supply.spellings(),
                supply == null || supply.inventorySince() == null ? null : supply.inventorySince().toString(),
                supplyView(supply), margins, queue(peak, ceiling), out, needed, gap,
                summary(model, usable, sum[4], usable - sum[4], terms.horizonDays(), out.size()));
    }

    private static Margin failures(Supply.Model supply, ShapePlanner.Terms terms) {
        Supply.Failures f = supply == null ? null : supply.failures();
        Supply.Maintenance m = supply == null ? null : supply.maintenance();
        return MarginRules.failures(f == null ? null : number(f.perCardHour()), f == null ? null : number(f.mttrSeconds()),
                m == null ? null : number(m.share()), f == null ? 0 : f.incidents(), terms.failuresFloor());
    }

    /** The model's jitter margin as the base-weighted mean of its shapes' (shown on its own in the model's bar). */
    private static Margin modelJitter(List<ShapePlanner.Base> bases, ShapePlanner.Terms terms) {
        double weight = bases.stream().mapToDouble(ShapePlanner.Base::cards).sum();
        if (weight <= 0) {
            return MarginRules.jitter(null, null, null, terms.jitterFloor());
        }
        double share = 0;
        int measured = 0;
        for (ShapePlanner.Base b : bases) {
            share += b.jitter().share() * b.cards() / weight;
            measured += b.jitter().measured() == null ? 0 : 1;
        }
        String basis = "the shapes' jitter margins weighted by their base cards (" + measured + " of " + bases.size()
                + " shapes measured)";
        return Margin.of(measured == 0 ? null : share, terms.jitterFloor(), basis);
    }

    private static Supply.Shape offered(Supply.Model supply, Demand.Shape shape) {
        if (supply == null) {
            return null;
        }
        return supply.shapes().stream().filter(s -> s.shape().equals(shape.shape())).findFirst().orElse(null);
    }

    private static CapacityPlan.SupplyView supplyView(Supply.Model supply) {
        if (supply == null) {
            return new CapacityPlan.SupplyView(0, 0, 0, 0, BigDecimal.ZERO, BigDecimal.ZERO, List.of());
        }
        double cardHours = 0;
        double usableHours = 0;
        for (Supply.Day d : supply.days()) {
            cardHours += number(d.cardHours()) == null ? 0 : d.cardHours().doubleValue();
            usableHours += number(d.usableCardHours()) == null ? 0 : d.usableCardHours().doubleValue();
        }
        Supply.End end = supply.end();
        return new CapacityPlan.SupplyView(end == null ? 0 : end.cards(), end == null ? 0 : end.cordoned(),
                end == null ? 0 : end.failed(), end == null ? 0 : end.usable(), Shares.figure(cardHours),
                Shares.figure(usableHours), supply.shapes().stream().map(s -> new CapacityPlan.ShapeSupply(s.shape(),
                        s.kind(), s.cards(), s.units(), s.freeUnits())).toList());
    }

    private static CapacityPlan.QueueView queue(Demand.Peak peak, Double ceiling) {
        if (peak == null) {
            return null;
        }
        Demand.QueueWait w = peak.queueWaitP95Seconds();
        Demand.Pending p = peak.pending();
        return new CapacityPlan.QueueView(w == null ? null : w.peak(), w == null ? null : w.peakDay(),
                w == null ? null : w.median(), p == null ? null : p.peakGpus(),
                p == null || p.peakHour() == null ? null : p.peakHour().toString(), p == null ? null : p.busiestHourOfDay(),
                p == null ? null : p.meanGpusAtBusiestHour(), ceiling == null ? null : Shares.figure(ceiling));
    }

    private static String summary(String model, int usable, double needed, double gap, int horizonDays, int shapes) {
        String period = " over the next " + horizonDays + (horizonDays == 1 ? " day" : " days");
        long cards = Math.round(Math.abs(gap));
        String verdict = cards == 0 ? "supply about meets demand" + period
                : gap < 0 ? "short by ~" + cards + (cards == 1 ? " card" : " cards") + period
                : "surplus of ~" + cards + (cards == 1 ? " card" : " cards") + period;
        return model + ": " + usable + " usable cards, " + MarginRules.fixed(needed, 2) + " needed by " + shapes
                + (shapes == 1 ? " shape" : " shapes") + " with margins; " + verdict;
    }

    private static Double number(BigDecimal value) {
        return value == null ? null : value.doubleValue();
    }
}
