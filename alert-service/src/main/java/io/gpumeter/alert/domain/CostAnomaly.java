package io.gpumeter.alert.domain;

import java.math.BigDecimal;

/**
 * billing-service's judgement of one tenant's cost on the latest whole day against its trailing days: the cost, the
 * trailing mean, the threshold (mean + k standard deviations) and whether billing counts it as an anomaly.
 */
public record CostAnomaly(String tenant, String day, String currency, BigDecimal cost, BigDecimal trailingMean,
                          BigDecimal threshold, boolean anomalous) {
}
