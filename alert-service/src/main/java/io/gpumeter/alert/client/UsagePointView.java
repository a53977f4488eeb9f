package io.gpumeter.alert.client;

import java.time.Instant;

/** The fields of the ledger's per-minute usage points that the rules read. */
public record UsagePointView(String scope, String scopeKey, String field, Instant minute, double mean, double max) {
}
