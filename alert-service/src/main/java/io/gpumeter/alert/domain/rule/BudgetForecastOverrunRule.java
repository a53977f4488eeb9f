package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.BudgetForecast;
import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.Snapshot;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A tenant's month is forecast (by billing-service's linear run-rate) to cost more than its budget plus a tolerance,
 * once enough of the month has passed for the run-rate to mean something; or it has already spent the budget.
 */
public final class BudgetForecastOverrunRule implements Rule {

    public static final String NAME = "BudgetForecastOverrun";

    private final BigDecimal tolerance;
    private final BigDecimal minElapsed;

    /**
     * @param tolerance  share above the budget the forecast may reach without firing (0.05 = 5%)
     * @param minElapsed share of the month that must have passed before a forecast alone fires
     */
    public BudgetForecastOverrunRule(BigDecimal tolerance, BigDecimal minElapsed) {
        if (tolerance.signum() < 0) {
            throw new IllegalArgumentException("gpumeter.alert.rules.budget.tolerance must not be negative");
        }
        if (minElapsed.signum() < 0 || minElapsed.compareTo(BigDecimal.ONE) > 0) {
            throw new IllegalArgumentException("gpumeter.alert.rules.budget.min-elapsed must be between 0 and 1");
        }
        this.tolerance = tolerance;
        this.minElapsed = minElapsed;
    }

    @Override
    public String alertname() {
        return NAME;
    }

    @Override
    public Severity severity() {
        return Severity.WARNING;
    }

    @Override
    public String condition() {
        return "a tenant's month-to-date cost already exceeds its budget, or, with at least "
                + minElapsed.movePointRight(2).stripTrailingZeros().toPlainString() + "% of the month elapsed, its "
                + "forecast exceeds the budget by more than " + tolerance.movePointRight(2).stripTrailingZeros().toPlainString()
                + "% (billing-service's linear run-rate)";
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        List<Finding> found = new ArrayList<>();
        for (BudgetForecast f : snapshot.budgets().orElse(List.of())) {
            if (f.budget() == null || f.forecast() == null || f.spentToDate() == null || f.elapsedFraction() == null) {
                continue;
            }
            BigDecimal line = f.budget().multiply(BigDecimal.ONE.add(tolerance));
            boolean spent = f.spentToDate().compareTo(f.budget()) > 0;
            boolean projected = f.forecast().compareTo(line) > 0 && f.elapsedFraction().compareTo(minElapsed) >= 0;
            if (spent || projected) {
                String currency = f.currency() == null ? "" : " " + f.currency();
                BigDecimal over = f.forecast().subtract(f.budget());
                found.add(Finding.of(NAME, severity()).label(Finding.TENANT, f.tenant())
                        .describe("Tenant " + f.tenant() + " is forecast to spend " + f.forecast().toPlainString() + currency
                                        + " in " + f.month() + ", " + over.toPlainString() + " over its budget of "
                                        + f.budget().toPlainString(),
                                "Spent " + f.spentToDate().toPlainString() + currency + " with "
                                        + f.elapsedFraction().movePointRight(2).setScale(1, RoundingMode.HALF_EVEN)
                                        .toPlainString() + "% of the month elapsed. See billing's "
                                        + "/api/v1/budgets/" + f.tenant() + "/forecast and the tenant's report."));
            }
        }
        return RuleResult.judge(NAME, found, Map.of("billing", snapshot.budgets()));
    }
}
