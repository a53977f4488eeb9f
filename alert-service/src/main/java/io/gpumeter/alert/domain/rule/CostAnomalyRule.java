package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.CostAnomaly;
import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.Snapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A tenant's cost on the latest whole day is far above its trailing norm, as billing-service judges it (mean + k
 * standard deviations of the trailing days, and at least a minimum amount: gpumeter.billing.anomaly.*).
 */
public final class CostAnomalyRule implements Rule {

    public static final String NAME = "CostAnomaly";

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
        return "billing-service judges a tenant's allocated cost on the latest whole day anomalous: above the mean + "
                + "k standard deviations of its trailing days and at least a minimum amount (gpumeter.billing.anomaly.*)";
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        List<Finding> found = new ArrayList<>();
        for (CostAnomaly a : snapshot.costs().orElse(List.of())) {
            if (a.anomalous() && a.cost() != null) {
                String currency = a.currency() == null ? "" : " " + a.currency();
                found.add(Finding.of(NAME, severity()).label(Finding.TENANT, a.tenant())
                        .describe("Tenant " + a.tenant() + " spent " + a.cost().toPlainString() + currency + " on " + a.day()
                                        + ", above its norm of " + plain(a.trailingMean()) + " (threshold "
                                        + plain(a.threshold()) + ")",
                                "A day's GPU cost far above the tenant's trailing days: a runaway job, a forgotten "
                                        + "reservation or a new workload. See billing's /api/v1/cost-anomalies?day="
                                        + a.day() + " and the tenant's weekly report."));
            }
        }
        return RuleResult.judge(NAME, found, Map.of("billing", snapshot.costs()));
    }

    private static String plain(java.math.BigDecimal value) {
        return value == null ? "?" : value.toPlainString();
    }
}
