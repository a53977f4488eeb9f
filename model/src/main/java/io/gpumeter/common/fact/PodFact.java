package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One observed version of a pod that asks for GPUs, reduced to what the allocated ledger needs.
 * Natural key: cluster, uid, resourceVersion, type.
 *
 * @param scheduledAt    when the PodScheduled condition turned True
 * @param allTerminated  every container of this version has a terminated state
 * @param lastFinishedAt the latest containerStatuses[].state.terminated.finishedAt in this version
 * @param gpuResources   GPU-related resource limits (or requests) summed over the pod's containers
 * @param vgpus          the HAMi devices allocated to the pod, empty when HAMi did not place it
 * @param claims         the ResourceClaims the pod uses (Dynamic Resource Allocation), empty when none
 * @param hamiBindPhase  HAMi's {@code hami.io/bind-phase} annotation ({@code success} once its binding is done), or null
 * @param hamiNode       HAMi's {@code hami.io/vgpu-node} annotation, the node HAMi bound the pod's devices on, or null
 */
public record PodFact(String uid, String namespace, String name, String resourceVersion, WatchEventType type,
                      Instant observedAt, Instant createdAt, Instant scheduledAt, String nodeName, String phase,
                      String schedulerName, boolean allTerminated, Instant lastFinishedAt, Instant deletionTimestamp,
                      Owner owner, Map<String, String> labels, Map<String, Long> gpuResources,
                      List<VgpuGrant> vgpus, List<PodClaim> claims, String hamiBindPhase, String hamiNode) {

    public PodFact {
        claims = claims == null ? List.of() : List.copyOf(claims);
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        gpuResources = gpuResources == null ? Map.of() : Map.copyOf(gpuResources);
        vgpus = vgpus == null ? List.of() : List.copyOf(vgpus);
    }

    /** A pod HAMi says nothing of beyond its devices. */
    public PodFact(String uid, String namespace, String name, String resourceVersion, WatchEventType type,
                   Instant observedAt, Instant createdAt, Instant scheduledAt, String nodeName, String phase,
                   String schedulerName, boolean allTerminated, Instant lastFinishedAt, Instant deletionTimestamp,
                   Owner owner, Map<String, String> labels, Map<String, Long> gpuResources, List<VgpuGrant> vgpus,
                   List<PodClaim> claims) {
        this(uid, namespace, name, resourceVersion, type, observedAt, createdAt, scheduledAt, nodeName, phase,
                schedulerName, allTerminated, lastFinishedAt, deletionTimestamp, owner, labels, gpuResources, vgpus,
                claims, null, null);
    }

    /** A pod without ResourceClaims. */
    public PodFact(String uid, String namespace, String name, String resourceVersion, WatchEventType type,
                   Instant observedAt, Instant createdAt, Instant scheduledAt, String nodeName, String phase,
                   String schedulerName, boolean allTerminated, Instant lastFinishedAt, Instant deletionTimestamp,
                   Owner owner, Map<String, String> labels, Map<String, Long> gpuResources, List<VgpuGrant> vgpus) {
        this(uid, namespace, name, resourceVersion, type, observedAt, createdAt, scheduledAt, nodeName, phase,
                schedulerName, allTerminated, lastFinishedAt, deletionTimestamp, owner, labels, gpuResources, vgpus,
                List.of(), null, null);
    }

    /** This version with HAMi's binding annotations. */
    public PodFact withHamiBinding(String bindPhase, String node) {
        return new PodFact(uid, namespace, name, resourceVersion, type, observedAt, createdAt, scheduledAt, nodeName,
                phase, schedulerName, allTerminated, lastFinishedAt, deletionTimestamp, owner, labels, gpuResources,
                vgpus, claims, bindPhase, node);
    }
}
