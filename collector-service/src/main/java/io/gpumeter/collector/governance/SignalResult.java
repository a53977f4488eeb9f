package io.gpumeter.collector.governance;

import io.gpumeter.common.fact.IngestResult;

import java.util.Map;

/**
 * What a pushed log did: lines read, the facts recognised in them (Xids, GPU announcements or container failure
 * signals), NVIDIA lines that could not be used by reason, and what the ledger stored.
 */
public record SignalResult(String cluster, int lines, int xids, int gpuAddresses, int signals, int skipped,
                           Map<String, Integer> skippedReasons, IngestResult governance) {
}
