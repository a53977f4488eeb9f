package io.gpumeter.slo.capacity;

/**
 * The one commitment model behind the capacity plan and the acceptance pack (docs/adr/0023): a demand, forecast on
 * a fitted line, in cards at the rule's deliverable rate; the three margins held back as shares of capacity, so the
 * cards needed are C = base / (1 − jitter − failures − peaks), stacked as base + jitter·C + failures·C + peaks·C; and
 * the rate a GPU is committed to at the SLO is the measured rate × (1 − jitter − failures − peaks).
 */
public final class CommitmentModel {

    /** Margins together never hold back more than this share: past it a plan would ask for unbounded cards. */
    public static final double MAX_MARGIN = 0.9;

    private CommitmentModel() {
    }

    /** Cards needed for {@code baseCards} of demand, in the parts each margin adds. */
    public record Stack(double base, double jitter, double failures, double peaks, boolean capped) {

        public double total() {
            return base + jitter + failures + peaks;
        }
    }

    public static Stack stack(double baseCards, Margin jitter, Margin failures, Margin peaks) {
        double held = jitter.share() + failures.share() + peaks.share();
        boolean capped = held > MAX_MARGIN;
        double scale = capped ? MAX_MARGIN / held : 1;
        double capacity = baseCards / (1 - Math.min(held, MAX_MARGIN));
        return new Stack(baseCards, capacity * jitter.share() * scale, capacity * failures.share() * scale,
                capacity * peaks.share() * scale, capped);
    }

    /** What one GPU is committed to at the SLO: the measured rate less the margins' shares. */
    public static double committed(double measuredPerGpu, Margin jitter, Margin failures, Margin peaks) {
        double held = Math.min(jitter.share() + failures.share() + peaks.share(), MAX_MARGIN);
        return measuredPerGpu * (1 - held);
    }

    /**
     * A daily series' busiest day over the horizon on its fitted line (the last day when it rises, else the first),
     * with the prediction interval; a series of fewer than {@value LinearTrend#MIN_POINTS} days is read as flat at its
     * mean, without an interval.
     */
    public record Forecast(int days, int aheadDays, double point, double low, double high, double slopePerDay,
                           Double growthPerWeek, boolean trendClear, boolean fitted) {
    }

    public static Forecast forecast(double[] daily, int horizonDays, double z) {
        int n = daily.length;
        if (n < LinearTrend.MIN_POINTS) {
            double mean = 0;
            for (double d : daily) {
                mean += d / n;
            }
            double level = n == 0 ? 0 : mean;
            return new Forecast(n, horizonDays, level, level, level, 0, null, false, false);
        }
        LinearTrend trend = LinearTrend.fit(daily);
        double level = trend.at(n - 1);
        int ahead = trend.slope() >= 0 ? horizonDays : 1;
        double x = n - 1 + ahead;
        double half = trend.predictionHalfWidth(x, z);
        return new Forecast(n, ahead, Math.max(0, trend.at(x)), Math.max(0, trend.at(x) - half),
                Math.max(0, trend.at(x) + half), trend.slope(), level > 0 ? trend.slope() * 7 / level : null,
                trend.trendIsClear(z), true);
    }
}
