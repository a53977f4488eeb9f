package io.gpumeter.billing.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The ledger's card-equivalent conversion for MIG, vGPU and time-sliced grants, and its version.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record NormalizationPolicy(String policy, String version) {
}
