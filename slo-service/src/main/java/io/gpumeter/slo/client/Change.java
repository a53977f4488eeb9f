package io.gpumeter.slo.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.time.Instant;

/**
 * One change of the ledger's change book as its reads answer it: {@code node} null for a cluster-wide change,
 * {@code kind} one of the book's kinds (NODE_ADDED … QUOTA), {@code source} where it was seen (or the suite's own
 * action), {@code count} how many changes of its subject its minute held.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Change(String id, Instant at, String cluster, String node, String kind, String subject, String before,
                     String after, String source, int count) {
}
