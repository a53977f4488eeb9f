package io.gpumeter.slo.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.time.Instant;
import java.util.List;

/** The ledger's answer for one scope of a bulk read of the change book, in the order asked. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ScopeChanges(String cluster, String node, Instant from, Instant to, long total, List<Change> changes) {
}
