package io.gpumeter.billing.service;

import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.NotNull;

import java.math.BigDecimal;

/**
 * A tenant's monthly budget: an amount in the service's currency, to the cent.
 */
public record BudgetRequest(
        @NotNull @DecimalMin("0") @Digits(integer = 15, fraction = 2, message = "must have at most 2 decimals")
        BigDecimal monthlyAmount,
        String currency) {
}
