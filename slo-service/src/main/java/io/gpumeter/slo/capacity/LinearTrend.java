package io.gpumeter.slo.capacity;

/**
 * An ordinary least-squares line through a daily series (day 0, 1, …, n−1) with what its prediction interval needs:
 * the residual standard deviation σ = √(SSE / (n − 2)), the mean day x̄ and Sxx = Σ(x − x̄)².
 */
public record LinearTrend(int n, double intercept, double slope, double residualSigma, double meanX, double sxx) {

    /** Fewer points leave no degrees of freedom for σ. */
    public static final int MIN_POINTS = 3;

    /**
     * Fits y = intercept + slope·x to {@code y[x]}.
     *
     * @throws IllegalArgumentException for fewer than {@value #MIN_POINTS} points
     */
    public static LinearTrend fit(double[] y) {
        int n = y.length;
        if (n < MIN_POINTS) {
            throw new IllegalArgumentException("a trend needs at least " + MIN_POINTS + " days, got " + n);
        }
        double meanX = (n - 1) / 2.0;
        double meanY = 0;
        for (double v : y) {
            meanY += v;
        }
        meanY /= n;
        double sxx = 0;
        double sxy = 0;
        for (int x = 0; x < n; x++) {
            sxx += (x - meanX) * (x - meanX);
            sxy += (x - meanX) * (y[x] - meanY);
        }
        double slope = sxy / sxx;
        double intercept = meanY - slope * meanX;
        double sse = 0;
        for (int x = 0; x < n; x++) {
            double r = y[x] - (intercept + slope * x);
            sse += r * r;
        }
        return new LinearTrend(n, intercept, slope, Math.sqrt(sse / (n - 2)), meanX, sxx);
    }

    /** The line's value on day {@code x} (may lie beyond the series). */
    public double at(double x) {
        return intercept + slope * x;
    }

    /** Half-width of the interval for one future day's value: z·σ·√(1 + 1/n + (x − x̄)²/Sxx). */
    public double predictionHalfWidth(double x, double z) {
        return z * residualSigma * Math.sqrt(1 + 1.0 / n + (x - meanX) * (x - meanX) / sxx);
    }

    /** Half-width of the slope's interval: z·σ/√Sxx. */
    public double slopeHalfWidth(double z) {
        return z * residualSigma / Math.sqrt(sxx);
    }

    /** Whether the slope's interval excludes zero, i.e. the series really rises or falls. */
    public boolean trendIsClear(double z) {
        return Math.abs(slope) > slopeHalfWidth(z);
    }
}
