package io.gpumeter.common.fact;

import java.time.Instant;

/**
 * One NVIDIA Xid report, from the kernel log or dcgm-exporter. Natural key: cluster, node, pciBusId, at, code,
 * message.
 *
 * @param pciBusId the GPU's PCI address, normalised to {@code dddd:bb:dd} lower-case (e.g. 0000:9b:00)
 * @param gpuUuid  the card, when the source named it; else the ledger resolves it from the PCI address
 */
public record XidFact(String node, String pciBusId, String gpuUuid, Instant at, int code, Long pid, String process,
                      String message, String source) {
}
