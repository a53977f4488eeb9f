package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.BudgetForecast;
import io.gpumeter.alert.domain.CostAnomaly;
import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.RuleStatus;
import io.gpumeter.alert.domain.Snapshots;
import io.gpumeter.alert.domain.Source;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cost rules over billing-service's budget forecasts and cost judgements. */
class BillingRulesTest {

    private static BudgetForecast forecast(String tenant, String budget, String spent, String elapsed, String forecast) {
        return new BudgetForecast(tenant, "2026-05", "USD", new BigDecimal(budget), new BigDecimal(spent),
                new BigDecimal(elapsed), new BigDecimal(forecast));
    }

    private static RuleResult budgets(Source<List<BudgetForecast>> forecasts) {
        return new BudgetForecastOverrunRule(new BigDecimal("0.05"), new BigDecimal("0.1"))
                .evaluate(Snapshots.billing(forecasts, Source.available(List.of())));
    }

    @Test
    void aForecastAboveTheBudgetPlusToleranceFiresOnceEnoughOfTheMonthHasPassed() {
        /*
         * Tolerance 5%, at least 10% of the month elapsed. A 600.00 budget allows a forecast of 600.00 x 1.05 =
         * 630.00: 630.00 does not fire, 630.01 does. At 9% elapsed a forecast of 500.00 on a 100.00 budget does
         * not fire yet; at exactly 10% 106.00 (> 105.00) does; spending 100.01 of 100.00 fires whatever the share.
         */
        RuleResult r = budgets(Source.available(List.of(
                forecast("at-line", "600.00", "315.00", "0.500000", "630.00"),
                forecast("beta", "600.00", "315.01", "0.500000", "630.01"),
                forecast("early", "100.00", "45.00", "0.090000", "500.00"),
                forecast("ten-percent", "100.00", "10.60", "0.100000", "106.00"),
                forecast("spent", "100.00", "100.01", "0.050000", "2000.20"))));
        assertEquals(RuleStatus.FIRING, r.status());
        assertEquals(List.of("beta", "ten-percent", "spent"), r.findings().stream().map(f -> f.label(Finding.TENANT)).toList());
        Finding beta = r.findings().get(0);
        assertEquals(Map.of("alertname", "BudgetForecastOverrun", "severity", "warning", "gpumeter", "true",
                "tenant", "beta"), beta.labels());
        assertEquals("Tenant beta is forecast to spend 630.01 USD in 2026-05, 30.01 over its budget of 600.00",
                beta.summary());
        assertTrue(beta.description().startsWith("Spent 315.01 USD with 50.0% of the month elapsed."), beta.description());
    }

    @Test
    void theConditionNamesItsThresholds() {
        String condition = new BudgetForecastOverrunRule(new BigDecimal("0.05"), new BigDecimal("0.1")).condition();
        assertTrue(condition.contains("at least 10% of the month elapsed"), condition);
        assertTrue(condition.contains("by more than 5%"), condition);
        assertThrows(IllegalArgumentException.class, () -> new BudgetForecastOverrunRule(new BigDecimal("-0.01"), BigDecimal.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new BudgetForecastOverrunRule(BigDecimal.ZERO, new BigDecimal("1.5")));
    }

    @Test
    void withoutBillingTheCostRulesAreInactiveAndAFailingBillingHoldsThem() {
        assertEquals(RuleStatus.INACTIVE, budgets(Source.absent("404")).status());
        assertEquals(RuleStatus.HELD, budgets(Source.failed("HTTP 503")).status());
        RuleResult costs = new CostAnomalyRule().evaluate(Snapshots.billing(Source.available(List.of()), Source.absent("404")));
        assertEquals(RuleStatus.INACTIVE, costs.status());
        assertTrue(costs.note().contains("billing source not available"), costs.note());
    }

    @Test
    void aDayBillingJudgesAnomalousFiresPerTenant() {
        RuleResult r = new CostAnomalyRule().evaluate(Snapshots.billing(Source.available(List.of()), Source.available(List.of(
                new CostAnomaly("acme", "2026-11-15", "USD", new BigDecimal("82.00"), new BigDecimal("45.10"),
                        new BigDecimal("57.86"), true),
                new CostAnomaly("beta", "2026-11-15", "USD", new BigDecimal("13.20"), new BigDecimal("0.00"),
                        new BigDecimal("0.00"), false)))));
        assertEquals(RuleStatus.FIRING, r.status());
        assertEquals(1, r.findings().size());
        Finding acme = r.findings().get(0);
        assertEquals(Map.of("alertname", "CostAnomaly", "severity", "warning", "gpumeter", "true", "tenant", "acme"),
                acme.labels());
        assertEquals("Tenant acme spent 82.00 USD on 2026-11-15, above its norm of 45.10 (threshold 57.86)", acme.summary());
        RuleResult calm = new CostAnomalyRule().evaluate(Snapshots.billing(Source.available(List.of()),
                Source.available(List.of())));
        assertEquals(RuleStatus.OK, calm.status());
    }
}
