package io.gpumeter.slo.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.time.Instant;

/**
 * One minute of one of a card's usage series, as the ledger answers it: scope DEVICE (scopeKey ""),
 * MIG_INSTANCE (the GPU instance id), CONTAINER ("namespace/pod/container") or PROCESS.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record UsagePoint(String scope, String scopeKey, String field, Instant minute, double mean, double max) {
}
