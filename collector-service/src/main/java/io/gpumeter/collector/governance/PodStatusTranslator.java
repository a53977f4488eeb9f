package io.gpumeter.collector.governance;

import io.fabric8.kubernetes.api.model.ContainerStateRunning;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import io.gpumeter.collector.kubernetes.Skip;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.LabelRequirement;
import io.gpumeter.common.fact.NodeSelectorTerm;
import io.gpumeter.common.fact.NotScheduled;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodPlacement;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.PodToleration;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The governance view of a GPU pod, made beside its metering fact: scheduler, gang, queue label, pod-level reason,
 * every container's state (which failure and recovery times come from), the scheduler's refusal while the pod is
 * not scheduled, and where the pod may be placed (what tells a pod no node matches from one the nodes cannot hold).
 */
public final class PodStatusTranslator {

    static final String GROUP_ANNOTATION = "scheduling.k8s.io/group-name";
    static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
    /**
     * The taints of a node not ready or unreachable whose NoExecute tolerations the DefaultTolerationSeconds admission
     * plugin gives every pod: such a node is also tainted NoSchedule, so these decide no placement.
     */
    static final Set<String> DEFAULT_TOLERATION_KEYS = Set.of("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable");

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
                group, metered.labels().get(QUEUE_LABEL), metered.gpuResources(), readyChangedAt(pod), containers,
                notScheduled(pod), placement(pod.getSpec()));
    }

    /** The PodScheduled condition while it is False; null once it is True or when the pod has none. */
    static NotScheduled notScheduled(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        for (PodCondition c : pod.getStatus().getConditions()) {
            if ("PodScheduled".equals(c.getType()) && "False".equals(c.getStatus())) {
                return new NotScheduled(c.getReason(), c.getMessage(), lenient(c.getLastTransitionTime()));
            }
        }
        return null;
    }

    /** The node selector, the required node affinity's terms and the tolerations that decide a placement. */
    static PodPlacement placement(PodSpec spec) {
        if (spec == null) {
            return null;
        }
        Map<String, String> selector = new LinkedHashMap<>();
        if (spec.getNodeSelector() != null) {
            spec.getNodeSelector().forEach((k, v) -> {
                if (k != null && v != null) {
                    selector.put(k, v);
                }
            });
        }
        List<NodeSelectorTerm> terms = new ArrayList<>();
        var affinity = spec.getAffinity() == null ? null : spec.getAffinity().getNodeAffinity();
        var required = affinity == null ? null : affinity.getRequiredDuringSchedulingIgnoredDuringExecution();
        if (required != null && required.getNodeSelectorTerms() != null) {
            for (var term : required.getNodeSelectorTerms()) {
                if (term != null) {
                    terms.add(new NodeSelectorTerm(requirements(term.getMatchExpressions()),
                            requirements(term.getMatchFields())));
                }
            }
        }
        List<PodToleration> tolerations = new ArrayList<>();
        if (spec.getTolerations() != null) {
            for (Toleration t : spec.getTolerations()) {
                if (t != null && !isDefault(t)) {
                    tolerations.add(new PodToleration(t.getKey(), t.getOperator(), t.getValue(), t.getEffect()));
                }
            }
        }
        return PodPlacement.of(selector, terms, tolerations);
    }

    private static boolean isDefault(Toleration t) {
        return DEFAULT_TOLERATION_KEYS.contains(t.getKey()) && "NoExecute".equals(t.getEffect());
    }

    private static List<LabelRequirement> requirements(List<NodeSelectorRequirement> requirements) {
        List<LabelRequirement> out = new ArrayList<>();
        if (requirements != null) {
            for (NodeSelectorRequirement r : requirements) {
                if (r != null) {
                    out.add(new LabelRequirement(r.getKey(), r.getOperator(), r.getValues() == null ? null
                            : r.getValues().stream().filter(Objects::nonNull).toList()));
                }
            }
        }
        return out;
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
