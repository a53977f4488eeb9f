package io.gpumeter.collector.governance;

import io.fabric8.kubernetes.api.model.ContainerStateRunning;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.gpumeter.collector.kubernetes.Skip;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodStatusFact;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The governance view of a GPU pod, made beside its metering fact: scheduler, gang, queue label, pod-level reason
 * and every container's state, which failure and recovery times come from.
 */
public final class PodStatusTranslator {

    static final String GROUP_ANNOTATION = "scheduling.k8s.io/group-name";
    static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";

    private PodStatusTranslator() {
    }

    /** Made from a pod the metering translator accepted; a garbled container time is dropped, not fatal. */
    public static PodStatusFact translate(Pod pod, PodFact metered) {
        ObjectMeta meta = pod.getMetadata();
        Map<String, String> annotations = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
        var status = pod.getStatus();
        List<ContainerStatusFact> containers = new ArrayList<>();
        if (status != null) {
            add(containers, status.getInitContainerStatuses(), true);
            add(containers, status.getContainerStatuses(), false);
        }
        String group = annotations.get(GROUP_ANNOTATION);
        if (group == null) {
            group = annotations.get("volcano.sh/pod-group");
        }
        return new PodStatusFact(metered.uid(), metered.namespace(), metered.name(), metered.resourceVersion(),
                metered.type(), metered.observedAt(), metered.createdAt(), metered.scheduledAt(),
                metered.deletionTimestamp(), metered.nodeName(), metered.schedulerName(), metered.phase(),
                status == null ? null : status.getReason(), status == null ? null : status.getMessage(), metered.owner(),
                group, metered.labels().get(QUEUE_LABEL), metered.gpuResources(), readyChangedAt(pod), containers);
    }

    private static void add(List<ContainerStatusFact> out, List<ContainerStatus> statuses, boolean init) {
        if (statuses == null) {
            return;
        }
        for (ContainerStatus s : statuses) {
            out.add(new ContainerStatusFact(s.getName(), init, s.getRestartCount() == null ? 0 : s.getRestartCount(),
                    state(s.getState()), state(s.getLastState())));
        }
    }

    private static ContainerState state(io.fabric8.kubernetes.api.model.ContainerState s) {
        if (s == null) {
            return null;
        }
        ContainerStateTerminated t = s.getTerminated();
        if (t != null) {
            return new ContainerState(ContainerState.TERMINATED, t.getReason(), t.getMessage(), t.getExitCode(),
                    lenient(t.getStartedAt()), lenient(t.getFinishedAt()));
        }
        ContainerStateRunning r = s.getRunning();
        if (r != null) {
            return new ContainerState(ContainerState.RUNNING, null, null, null, lenient(r.getStartedAt()), null);
        }
        ContainerStateWaiting w = s.getWaiting();
        if (w != null) {
            return new ContainerState(ContainerState.WAITING, w.getReason(), w.getMessage(), null, null, null);
        }
        return null;
    }

    private static Instant readyChangedAt(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        for (PodCondition c : pod.getStatus().getConditions()) {
            if ("Ready".equals(c.getType())) {
                return lenient(c.getLastTransitionTime());
            }
        }
        return null;
    }

    private static Instant lenient(String value) {
        try {
            return Json.parseTime(value, "time");
        } catch (Skip e) {
            return null;
        }
    }
}
