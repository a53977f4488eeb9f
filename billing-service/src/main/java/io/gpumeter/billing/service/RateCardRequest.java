package io.gpumeter.billing.service;

import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.Map;

/**
 * A new dated rate card: prices per normalized GPU-hour from {@code effectiveFrom} on.
 */
public record RateCardRequest(
        @NotBlank @Pattern(regexp = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}",
                message = "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit")
        String version,
        @NotNull OffsetDateTime effectiveFrom,
        String currency,
        @NotNull @DecimalMin("0") BigDecimal defaultRate,
        Map<@NotBlank String, @NotNull @DecimalMin("0") BigDecimal> models) {
}
