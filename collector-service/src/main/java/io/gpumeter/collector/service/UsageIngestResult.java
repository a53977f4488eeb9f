package io.gpumeter.collector.service;

import java.util.List;

/**
 * What a usage push did.
 *
 * @param samples  observations read from the body
 * @param skipped  samples of metrics not read, or unusable (no GPU UUID, out of range)
 * @param accepted samples counted for the first time by the ledger or, when buffered, new to the buffer
 * @param problems why the first unusable samples were skipped
 * @param buffered whether the samples were buffered for the ledger (answered at once; {@code podsBound} then 0)
 *                 rather than delivered before answering
 * @param driverSightings driver versions sent as news for their cards (a card's version already sent is not counted)
 */
public record UsageIngestResult(String cluster, String node, int samples, int accepted, int duplicates, int skipped,
                                int podsBound, List<String> problems, boolean buffered, int driverSightings) {
}
