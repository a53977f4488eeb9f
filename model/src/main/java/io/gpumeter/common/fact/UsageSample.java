package io.gpumeter.common.fact;

import java.time.Instant;

/**
 * One field value of one GPU series at one instant. Natural key: cluster, gpuUuid, scope, scopeKey, field and
 * the second of {@code at}; a series carries at most one sample per second.
 *
 * @param scopeKey  "" for DEVICE, the GPU instance id for MIG_INSTANCE, "namespace/pod/container" for CONTAINER,
 *                  the pid for PROCESS ("namespace/pod/container/pid" when the pusher named the process's container)
 * @param namespace the pod the exporter attributed the series to, if any (dcgm-exporter's Kubernetes mode)
 */
public record UsageSample(String gpuUuid, String node, UsageScope scope, String scopeKey, String migProfile,
                          String namespace, String pod, String container, UsageField field, double value, Instant at) {
}
