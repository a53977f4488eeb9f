package io.gpumeter.console;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.util.List;

/**
 * billing-service's reads as the Hours and Budgets pages bind them: the monthly report's lines
 * ({@code GET /api/v1/reports/monthly?format=json}), the cost series ({@code GET /api/v1/reports/series}), the budgets'
 * forecasts ({@code GET /api/v1/budget-forecasts}, {@code GET /api/v1/budgets/{tenant}/forecast}) and the cost
 * anomalies ({@code GET /api/v1/cost-anomalies}). Group and tenant names are tenants' words: the pages write them only
 * as template values, which the HTML template escapes.
 */
final class BillingAnswers {

    private BillingAnswers() {
    }

    /**
     * One line of the monthly report, in its CSV's column names; its group is the column the report is grouped by
     * (tenant, team, project or namespace). The energy cost and CO2e are null where billing's rate cards price none.
     */
    @RegisterForReflection
    record MonthlyLine(@JsonProperty("tenant") @JsonAlias({"team", "project", "namespace"}) String group, String currency,
                       @JsonProperty("allocated_cost") BigDecimal allocatedCost,
                       @JsonProperty("used_cost_showback") BigDecimal usedCost,
                       @JsonProperty("idle_cost_showback") BigDecimal idleCost,
                       @JsonProperty("energy_cost") BigDecimal energyCost, @JsonProperty("co2e_kg") BigDecimal co2eKg) {
    }

    /** A month's hours and cost per day, week or month and group, its buckets between billing's own midnights. */
    @RegisterForReflection
    record Series(String timeZone, String currency, List<Bucket> buckets, List<Line> lines) {
    }

    /** One bucket: its label and its bounds. */
    @RegisterForReflection
    record Bucket(String label, String start, String end) {
    }

    /** One group's hours, cost and energy (kWh its units drew) in one bucket, as billing answered them. */
    @TemplateData
    @RegisterForReflection
    record Line(String bucket, String group, BigDecimal allocatedGpuHours, BigDecimal usedGpuHours, BigDecimal idleGpuHours,
                BigDecimal allocatedCost, BigDecimal usedCost, BigDecimal idleCost, BigDecimal energyKWh) {
    }

    /** A tenant's month against its budget: spent so far, the share of the month gone, the linear forecast. */
    @TemplateData
    @RegisterForReflection
    record Forecast(String tenant, String currency, BigDecimal budget, String asOf, BigDecimal spentToDate,
                    BigDecimal elapsedFraction, BigDecimal forecast, boolean overrun, BigDecimal overrunAmount,
                    BigDecimal remaining, boolean closed) {
    }

    /** The last whole day's cost of each tenant against its trailing days. */
    @RegisterForReflection
    record Anomalies(String day, String currency, List<TenantDay> tenants) {
    }

    /** One tenant's day; anomalous when its cost passed the threshold billing set from the trailing days. */
    @TemplateData
    @RegisterForReflection
    record TenantDay(String tenant, BigDecimal cost, BigDecimal trailingMean, BigDecimal trailingStdDev, BigDecimal threshold,
                     boolean anomalous) {
    }
}
