package io.gpumeter.billing.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.math.BigDecimal;

/** The queue-wait distribution of one ClusterQueue over a window, as the ledger reports it (seconds). */
@JsonIgnoreProperties(ignoreUnknown = true)
public record QueueWait(String key, int count, BigDecimal p95Seconds) {
}
