package io.gpumeter.collector.service;

import java.util.Map;

/**
 * What a replay request did: facts stored for the first time, facts the ledger already had, and events skipped.
 */
public record ReplayResult(String cluster, int events, int accepted, int duplicates, int skipped,
                           Map<String, Integer> skippedReasons) {
}
