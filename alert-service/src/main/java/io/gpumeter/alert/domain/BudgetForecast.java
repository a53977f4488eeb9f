package io.gpumeter.alert.domain;

import java.math.BigDecimal;

/**
 * billing-service's forecast of one tenant's month against its budget: spent so far, the share of the month elapsed,
 * and the month's cost projected linearly to its end.
 */
public record BudgetForecast(String tenant, String month, String currency, BigDecimal budget, BigDecimal spentToDate,
                             BigDecimal elapsedFraction, BigDecimal forecast) {
}
