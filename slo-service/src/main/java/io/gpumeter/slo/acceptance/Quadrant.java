package io.gpumeter.slo.acceptance;

import java.util.Locale;

/**
 * The four quadrants an acceptance signs, in the order the verdict shows them: how fast (performance), how steady
 * (stability), how much of what is paid for does work (efficiency), and whether the rules of sharing hold
 * (governance). Every metric a clause or the matrix reads declares its quadrant where it is defined
 * ({@link Plan.Metric}, {@link Matrix#JITTER_MINUTE_RATE}); a BLOCKED clause is governance.
 */
public enum Quadrant {
    PERFORMANCE("Throughput, latency percentiles and cold start"),
    STABILITY("Spread of the p99, jitter events, failures and the time to recover"),
    EFFICIENCY("Fragmentation, used over allocated GPU-hours, what they cost and tokens per joule"),
    GOVERNANCE("Queue wait and over-quota requests held back");

    private final String covers;

    Quadrant(String covers) {
        this.covers = covers;
    }

    /** "Performance": the heading of the quadrant's section. */
    public String title() {
        return name().charAt(0) + name().substring(1).toLowerCase(Locale.ROOT);
    }

    /** What the quadrant measures, in a few words under its heading. */
    public String covers() {
        return covers;
    }

    /**
     * The quadrant of a clause or matrix figure as a run names it: a metric ({@code P99}), a matrix column (an SLI
     * before it, {@code TTFT_P99_SPREAD}, or a figure of the matrix alone) or, without a metric, a BLOCKED clause.
     * Null for a name no metric carries. Runs stored before quadrants were recorded are grouped by this.
     */
    public static Quadrant of(String metric) {
        if (metric == null) {
            return GOVERNANCE;
        }
        if (Matrix.JITTER_MINUTE_RATE.equals(metric)) {
            return Matrix.JITTER_MINUTE_RATE_QUADRANT;
        }
        String bare = metric.replaceFirst("^(TTFT|ITL|E2E)_", "");
        for (Plan.Metric m : Plan.Metric.values()) {
            if (m.name().equals(metric) || m.name().equals(bare)) {
                return m.quadrant();
            }
        }
        return null;
    }

    /** The quadrant a run recorded, else the one its metric declares. */
    static Quadrant of(String recorded, String metric) {
        if (recorded != null) {
            for (Quadrant q : values()) {
                if (q.name().equals(recorded)) {
                    return q;
                }
            }
        }
        return of(metric);
    }
}
