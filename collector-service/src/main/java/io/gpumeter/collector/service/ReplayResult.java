package io.gpumeter.collector.service;

import io.gpumeter.common.fact.IngestResult;

import java.util.Map;

/**
 * What a replay request did: metering facts stored for the first time, facts the ledger already had, events
 * skipped, and the same counts for the governance facts (queues, admission, events, pod states).
 */
public record ReplayResult(String cluster, int events, int accepted, int duplicates, int skipped,
                           Map<String, Integer> skippedReasons, IngestResult governance) {
}
