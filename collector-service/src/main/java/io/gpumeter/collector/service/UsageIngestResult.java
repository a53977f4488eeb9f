package io.gpumeter.collector.service;

import java.util.List;

/**
 * What a usage push did.
 *
 * @param samples  observations read from the body
 * @param skipped  samples of metrics not read, or unusable (no GPU UUID, out of range)
 * @param problems why the first unusable samples were skipped
 */
public record UsageIngestResult(String cluster, String node, int samples, int accepted, int duplicates, int skipped,
                                int podsBound, List<String> problems) {
}
