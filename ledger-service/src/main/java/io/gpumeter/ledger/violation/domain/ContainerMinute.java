package io.gpumeter.ledger.violation.domain;

import java.time.Instant;

/**
 * One minute of one container's HAMi series on one card: core utilization relative to the whole card (0..1) and
 * memory in use, either possibly absent.
 */
public record ContainerMinute(String cluster, String gpuUuid, String namespace, String pod, String container,
                              Instant minute, Double coreUtil, Double memoryMib) {
}
