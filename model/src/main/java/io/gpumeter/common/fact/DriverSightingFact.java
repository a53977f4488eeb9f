package io.gpumeter.common.fact;

import java.time.Instant;

/**
 * The driver version a data path saw on a node's card at an instant: nvidia-smi's {@code driver_version} (Level 0)
 * or dcgm-exporter's {@code DCGM_FI_DRIVER_VERSION} label. Natural key: cluster, node, gpuUuid, source, version.
 *
 * @param source {@code nvidia-smi} or {@code dcgm-exporter}
 */
public record DriverSightingFact(String node, String gpuUuid, String version, String source, Instant observedAt) {
}
