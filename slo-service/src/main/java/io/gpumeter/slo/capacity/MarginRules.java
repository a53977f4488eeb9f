package io.gpumeter.slo.capacity;

import java.util.Locale;

/**
 * The three margins a commitment holds back, each measured from the ledger's and slo-service's own facts and kept
 * at least at its configured floor (docs/adr/0023):
 * <ul>
 *   <li><b>jitter</b>: how much worse than its calm level the service's p99 gets — the larger of the interference
 *   factor (p99 beside neighbours over p99 alone) and 1 + the p99's spread over its median. Keeping that worst case
 *   under the SLO takes that many times the calm capacity, so the share of capacity held back is 1 − 1/worse.</li>
 *   <li><b>failures and maintenance</b>: the share of card time failures take (failures per card-hour × the mean
 *   time to repair in hours: the expected share of cards down at once), plus the share of card-hours planned
 *   maintenance cordoned. The runbook's cordons are failures, counted by the ledger among the incidents.</li>
 *   <li><b>governance peaks</b>: GPUs pending at the busiest hour of day, on average, as a share of what serves
 *   both them and the daily demand: pending / (demand's cards + pending).</li>
 * </ul>
 */
public final class MarginRules {

    private MarginRules() {
    }

    /** The jitter margin from an interference factor and a p99's spread over its median (any may be null). */
    public static Margin jitter(Double interferenceFactor, Double p99SpreadMs, Double p99MedianMs, double floor) {
        Double spreadRatio = p99SpreadMs == null || p99MedianMs == null || p99MedianMs <= 0 ? null
                : 1 + Math.max(0, p99SpreadMs) / p99MedianMs;
        Double factor = interferenceFactor == null || interferenceFactor <= 0 ? null : interferenceFactor;
        if (spreadRatio == null && factor == null) {
            return Margin.of(null, floor, "no latency measured (no SLO, or no acceptance run or jitter facts): the floor holds");
        }
        double worse = Math.max(1, Math.max(spreadRatio == null ? 1 : spreadRatio, factor == null ? 1 : factor));
        String basis = (factor == null ? "no interference factor" : "interference factor " + fixed(factor, 2))
                + "; " + (spreadRatio == null ? "no p99 spread" : "p99 spread " + fixed(p99SpreadMs, 1) + " ms over a "
                + fixed(p99MedianMs, 1) + " ms median (×" + fixed(spreadRatio, 2) + ")")
                + ": the worst case needs " + fixed(worse, 2) + "× the calm capacity, 1 − 1/" + fixed(worse, 2);
        return Margin.of(1 - 1 / worse, floor, basis);
    }

    /**
     * The failures and maintenance margin from a model's failures per card-hour, its mean time to repair, and the
     * share of its card-hours planned maintenance cordoned (each may be null).
     */
    public static Margin failures(Double perCardHour, Double mttrSeconds, Double maintenanceShare, int incidents,
                                  double floor) {
        Double failed = perCardHour == null || mttrSeconds == null ? null : perCardHour * mttrSeconds / 3600;
        if (failed == null && maintenanceShare == null) {
            return Margin.of(null, floor, incidents > 0
                    ? incidents + " failures but none repaired, so no time to repair is known: the floor holds"
                    : "no card-hours measured: the floor holds");
        }
        double measured = (failed == null ? 0 : failed) + (maintenanceShare == null ? 0 : maintenanceShare);
        String basis = (failed == null
                ? incidents + " failures, none repaired (no time to repair)"
                : incidents + " failures, " + String.format(Locale.ROOT, "%.3g", perCardHour) + " per card-hour × "
                + fixed(mttrSeconds / 3600, 2) + " h to repair = " + percent(failed) + " of cards down")
                + "; planned maintenance " + (maintenanceShare == null ? "unknown" : percent(maintenanceShare)
                + " of card-hours");
        return Margin.of(measured, floor, basis);
    }

    /** The governance peaks margin from the GPUs pending at the busiest hour of day and the demand's own cards. */
    public static Margin peaks(Double pendingAtBusiestHour, Integer busiestHour, Double demandCards, Double queueP95Peak,
                               double floor) {
        if (pendingAtBusiestHour == null || demandCards == null || pendingAtBusiestHour + demandCards <= 0) {
            return Margin.of(null, floor, "no pending demand measured: the floor holds");
        }
        double share = pendingAtBusiestHour / (demandCards + pendingAtBusiestHour);
        String basis = fixed(pendingAtBusiestHour, 2) + " GPUs pending on average at " + (busiestHour == null ? "the busiest hour"
                : String.format(Locale.ROOT, "%02d:00", busiestHour)) + " beside " + fixed(demandCards, 2)
                + " cards of demand" + (queueP95Peak == null ? "" : "; queue-wait p95 peaked at " + fixed(queueP95Peak, 0) + " s");
        return Margin.of(share, floor, basis);
    }

    static String fixed(double value, int digits) {
        return String.format(Locale.ROOT, "%." + digits + "f", value);
    }

    static String percent(double share) {
        return String.format(Locale.ROOT, "%.2f%%", share * 100);
    }
}
