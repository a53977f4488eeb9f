package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A GPU-stack component's pod: one whose controller is a configured DaemonSet, or a configured Deployment through its
 * ReplicaSet, in the component's own namespace. These pods request no GPU, so the metering path skips them; this
 * one keeps whether each serves its node — ready, restarting, waiting and why.
 */
public final class StackPodTranslator {

    private StackPodTranslator() {
    }

    /**
     * The pod's stack fact, or null when it is no component's pod. Its namespace decides first: a tenant's pod whose
     * owner is named like a component, in the tenant's namespace, is never the stack's.
     *
     * @throws Skip for a component's pod whose metadata lacks what a fact's key is made of, or whose images are none
     */
    public static StackPodFact translate(Pod pod, WatchEventType type, Instant observedAt, StackComponents components) {
        ObjectMeta meta = pod.getMetadata();
        if (meta == null || !components.inNamespace(meta.getNamespace())) {
            return null;
        }
        if (meta.getOwnerReferences() == null || meta.getOwnerReferences().contains(null)) {
            return null; // no owner, or a list no controller wrote: no component's pod
        }
        Owner owner = PodTranslator.owner(meta);
        String component = owner == null ? null : components.component(meta.getNamespace(), owner.kind(), owner.name());
        if (component == null) {
            return null;
        }
        Objects.metadata(meta, true);
        var spec = pod.getSpec();
        var status = pod.getStatus();
        List<ContainerStatus> statuses = new ArrayList<>();
        if (status != null) {
            // init containers first: one that crash-loops holds the pod before any app container starts
            if (status.getInitContainerStatuses() != null) {
                statuses.addAll(status.getInitContainerStatuses());
            }
            if (status.getContainerStatuses() != null) {
                statuses.addAll(status.getContainerStatuses());
            }
        }
        int restarts = 0;
        String waitingReason = null;
        for (ContainerStatus s : statuses) {
            if (s == null) {
                continue;
            }
            restarts = Math.max(restarts, s.getRestartCount() == null ? 0 : s.getRestartCount());
            if (waitingReason == null && s.getState() != null && s.getState().getWaiting() != null) {
                waitingReason = blankToNull(s.getState().getWaiting().getReason());
            }
        }
        return new StackPodFact(meta.getNamespace(), meta.getName(), meta.getUid(), meta.getResourceVersion(), type,
                ManagedFieldTimes.written(meta.getManagedFields(), type, observedAt), component,
                spec == null ? null : blankToNull(spec.getNodeName()),
                StackImages.of(spec == null ? null : spec.getContainers(), "spec.containers"),
                status == null ? null : blankToNull(status.getPhase()), ready(status == null ? null : status.getConditions()),
                restarts, waitingReason);
    }

    private static boolean ready(List<PodCondition> conditions) {
        if (conditions == null) {
            return false;
        }
        for (PodCondition c : conditions) {
            if (c != null && "Ready".equals(c.getType())) {
                return "True".equals(c.getStatus());
            }
        }
        return false;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
