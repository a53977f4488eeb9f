package io.gpumeter.slo.capacity;

import io.gpumeter.slo.client.Demand;
import io.gpumeter.slo.client.Supply;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * The failures and peaks margins of the whole fleet over a window, for a commitment that is not tied to one model
 * (an acceptance run's cells): the models' failures pooled (incidents over all card-hours, the repair time averaged
 * over the repaired), their maintenance cordons over all card-hours, and the pending GPUs at each model's busiest
 * hour summed against the window's mean demand in cards.
 */
public final class FleetMargins {

    private FleetMargins() {
    }

    /** @param supply null when the ledger gave no answer: the floor holds */
    public static Margin failures(Supply supply, double floor) {
        if (supply == null) {
            return MarginRules.failures(null, null, null, 0, floor);
        }
        double cardHours = 0;
        double maintenance = 0;
        int incidents = 0;
        int repaired = 0;
        double repairSeconds = 0;
        for (Supply.Model m : supply.models()) {
            for (Supply.Day d : m.days()) {
                cardHours += value(d.cardHours());
            }
            if (m.maintenance() != null) {
                maintenance += value(m.maintenance().cardHours());
            }
            if (m.failures() != null) {
                incidents += m.failures().incidents();
                if (m.failures().mttrSeconds() != null) {
                    repaired += m.failures().repaired();
                    repairSeconds += m.failures().repaired() * m.failures().mttrSeconds().doubleValue();
                }
            }
        }
        if (cardHours <= 0) {
            return MarginRules.failures(null, null, null, incidents, floor);
        }
        return MarginRules.failures(incidents / cardHours, repaired == 0 ? null : repairSeconds / repaired,
                maintenance / cardHours, incidents, floor);
    }

    /** @param demand null when the ledger gave no answer: the floor holds */
    public static Margin peaks(Demand demand, double floor) {
        if (demand == null || demand.from() == null || demand.to() == null) {
            return MarginRules.peaks(null, null, null, null, floor);
        }
        double hours = Duration.between(demand.from(), demand.to()).toSeconds() / 3600.0;
        double gpuHours = 0;
        for (Demand.Shape s : demand.shapes()) {
            for (Demand.Day d : s.days()) {
                gpuHours += value(d.gpuHours());
            }
        }
        Double pending = null;
        Double queuePeak = null;
        for (Demand.Peak p : demand.peaks()) {
            if (p.pending() != null && p.pending().meanGpusAtBusiestHour() != null) {
                pending = (pending == null ? 0 : pending) + p.pending().meanGpusAtBusiestHour().doubleValue();
            }
            if (p.queueWaitP95Seconds() != null && p.queueWaitP95Seconds().peak() != null) {
                queuePeak = Math.max(queuePeak == null ? 0 : queuePeak, p.queueWaitP95Seconds().peak().doubleValue());
            }
        }
        return MarginRules.peaks(pending, null, hours <= 0 ? null : gpuHours / hours, queuePeak, floor);
    }

    private static double value(BigDecimal v) {
        return v == null ? 0 : v.doubleValue();
    }
}
