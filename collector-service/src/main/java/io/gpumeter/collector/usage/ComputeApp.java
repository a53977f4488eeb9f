package io.gpumeter.collector.usage;

import java.time.Instant;

/**
 * A process with a compute context on a GPU, as {@code nvidia-smi --query-compute-apps} lists it. On a MIG-enabled
 * card the UUID is the parent GPU's: nvidia-smi does not say which instance the process runs in.
 *
 * @param usedMemoryMib null when nvidia-smi cannot tell ({@code [N/A]})
 * @param processName   null when not queried
 */
public record ComputeApp(String gpuUuid, long pid, Long usedMemoryMib, String processName, Instant at) {
}
