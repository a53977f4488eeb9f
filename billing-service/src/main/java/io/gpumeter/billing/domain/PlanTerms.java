package io.gpumeter.billing.domain;

/**
 * How a capacity plan is made.
 *
 * @param horizonDays        how many days ahead the plan looks
 * @param margin             share of the inventory held back for failures and maintenance (0 to below 1)
 * @param targetUtilization  the share of usable cards demand may fill before queues grow (above 0, at most 1)
 * @param z                  the normal quantile of the intervals (1.96 for 95%)
 * @param queueLineSeconds   a day whose queue-wait p95 exceeds this counts as a day over the line
 */
public record PlanTerms(int horizonDays, double margin, double targetUtilization, double z, long queueLineSeconds) {

    public PlanTerms {
        if (horizonDays < 1) {
            throw new IllegalArgumentException("the horizon must be at least one day");
        }
        if (margin < 0 || margin >= 1) {
            throw new IllegalArgumentException("the failure and maintenance margin must be in [0, 1), got " + margin);
        }
        if (targetUtilization <= 0 || targetUtilization > 1) {
            throw new IllegalArgumentException("the target utilization must be in (0, 1], got " + targetUtilization);
        }
        if (z <= 0) {
            throw new IllegalArgumentException("the interval's quantile must be positive, got " + z);
        }
    }
}
