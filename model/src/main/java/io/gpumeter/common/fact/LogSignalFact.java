package io.gpumeter.common.fact;

import java.time.Instant;

/**
 * A pushed container log line that signals a GPU failure (CUDA out of memory, no CUDA-capable device, driver
 * too old, NCCL timeout). Natural key: cluster, namespace, pod, container, at, signal.
 */
public record LogSignalFact(String namespace, String pod, String container, Instant at, String signal, String line) {
}
