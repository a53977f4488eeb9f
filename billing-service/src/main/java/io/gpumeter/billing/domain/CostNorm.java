package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;

/**
 * When a tenant's daily cost is an anomaly: above the mean plus {@code sigmas} sample standard deviations of its
 * trailing days' costs (days without grants count as 0.00), and at least {@code minimumCost}, so that small tenants'
 * noise does not page anyone.
 */
public record CostNorm(int trailingDays, BigDecimal sigmas, BigDecimal minimumCost) {

    private static final MathContext PRECISION = MathContext.DECIMAL64;

    public CostNorm {
        if (trailingDays < 2) {
            throw new IllegalArgumentException("trailing-days must be at least 2 (a standard deviation needs two days)");
        }
        if (sigmas.signum() < 0) {
            throw new IllegalArgumentException("sigmas must not be negative");
        }
        if (minimumCost.signum() < 0) {
            throw new IllegalArgumentException("minimum-cost must not be negative");
        }
    }

    /**
     * One tenant's day judged against its trailing days.
     *
     * @param threshold mean + sigmas × standard deviation, printed to the cent (the comparison uses the exact value)
     */
    public record Judgement(String tenant, BigDecimal cost, BigDecimal trailingMean, BigDecimal trailingStdDev,
                            BigDecimal threshold, boolean anomalous) {
    }

    /** The day's {@code cost} of {@code tenant} against the costs of its trailing days, oldest first. */
    public Judgement judge(String tenant, BigDecimal cost, List<BigDecimal> trailing) {
        if (trailing.size() != trailingDays) {
            throw new IllegalArgumentException("expected " + trailingDays + " trailing days, got " + trailing.size());
        }
        BigDecimal n = BigDecimal.valueOf(trailingDays);
        BigDecimal sum = BigDecimal.ZERO;
        for (BigDecimal c : trailing) {
            sum = sum.add(c);
        }
        BigDecimal mean = sum.divide(n, PRECISION);
        BigDecimal squares = BigDecimal.ZERO;
        for (BigDecimal c : trailing) {
            BigDecimal d = c.subtract(mean);
            squares = squares.add(d.multiply(d));
        }
        BigDecimal deviation = squares.divide(n.subtract(BigDecimal.ONE), PRECISION).sqrt(PRECISION);
        BigDecimal threshold = mean.add(sigmas.multiply(deviation));
        boolean anomalous = cost.compareTo(threshold) > 0 && cost.compareTo(minimumCost) >= 0;
        return new Judgement(tenant, cost, cents(mean), cents(deviation), cents(threshold), anomalous);
    }

    private static BigDecimal cents(BigDecimal value) {
        return value.setScale(CostCalculator.MONEY_SCALE, RoundingMode.HALF_EVEN);
    }
}
