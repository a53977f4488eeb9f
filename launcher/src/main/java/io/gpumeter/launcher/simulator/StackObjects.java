package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetUpdateStrategy;
import io.fabric8.kubernetes.api.model.apps.DaemonSetUpdateStrategyBuilder;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The GPU stack's objects as the API server holds them, apart from its pods ({@link StackPodObjects}): its
 * namespaces, its DaemonSets (each version a complete snapshot with its status), and the scheduler's FailedScheduling
 * event of a pod that does not fit, as the events API presents it through core/v1 (eventTime and a series, no
 * first/lastTimestamp).
 */
final class StackObjects {

    /** The GPU Operator's ClusterPolicy, which owns its DaemonSets. */
    static final String CLUSTER_POLICY = "cluster-policy";

    private static final DateTimeFormatter MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    /**
     * A DaemonSet's counts as its controller reports them.
     *
     * @param updated how many nodes run a pod of the current template
     */
    record Counts(int desired, int ready, int updated) {
    }

    private StackObjects() {
    }

    static Namespace namespace(String name, String uid, Instant created) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/metadata.name", name);
        if (!"kube-system".equals(name)) {
            // the operators' pods are privileged: their namespaces enforce the privileged Pod Security level
            labels.put("pod-security.kubernetes.io/enforce", "privileged");
        }
        return new NamespaceBuilder()
                .withNewMetadata().withName(name).withUid(uid).withCreationTimestamp(Rfc3339.format(created))
                .withLabels(labels).endMetadata()
                .withNewSpec().withFinalizers("kubernetes").endSpec()
                .withNewStatus().withPhase("Active").endStatus()
                .build();
    }

    static DaemonSet daemonSet(StackComponent c, String uid, String policyUid, Instant created, long generation,
                               String image, Counts counts) {
        DaemonSetBuilder ds = new DaemonSetBuilder()
                .withNewMetadata()
                .withName(c.daemonSet()).withNamespace(c.namespace()).withUid(uid)
                .withCreationTimestamp(Rfc3339.format(created)).withGeneration(generation)
                .withLabels(c.selector())
                .addToAnnotations("deprecated.daemonset.template.generation", Long.toString(generation))
                .endMetadata();
        if (c.operand() != null) {
            ds.editMetadata().addNewOwnerReference().withApiVersion("nvidia.com/v1").withKind("ClusterPolicy")
                    .withName(CLUSTER_POLICY).withUid(policyUid).withController(true).withBlockOwnerDeletion(true)
                    .endOwnerReference().endMetadata();
        }
        return ds.withNewSpec()
                .withNewSelector().withMatchLabels(c.selector()).endSelector()
                .withNewTemplate()
                .withNewMetadata().withLabels(c.selector()).endMetadata()
                .withNewSpec()
                .withNodeSelector(c.nodeSelector())
                .withTolerations(gpuToleration())
                .withPriorityClassName("system-node-critical")
                .withServiceAccountName(c.serviceAccount())
                .withContainers(c.containers().stream().map(name -> new io.fabric8.kubernetes.api.model.ContainerBuilder()
                        .withName(name).withImage(image).withImagePullPolicy("IfNotPresent").build()).toList())
                .endSpec()
                .endTemplate()
                .withUpdateStrategy(strategy(c))
                .withRevisionHistoryLimit(10)
                .endSpec()
                .withNewStatus()
                .withObservedGeneration(generation)
                .withDesiredNumberScheduled(counts.desired()).withCurrentNumberScheduled(counts.desired())
                .withNumberMisscheduled(0)
                .withNumberReady(counts.ready()).withNumberAvailable(counts.ready())
                .withNumberUnavailable(counts.desired() > counts.ready() ? counts.desired() - counts.ready() : null)
                .withUpdatedNumberScheduled(counts.updated())
                .endStatus()
                .build();
    }

    private static DaemonSetUpdateStrategy strategy(StackComponent c) {
        if (c.onDelete()) {
            return new DaemonSetUpdateStrategyBuilder().withType("OnDelete").build();
        }
        return new DaemonSetUpdateStrategyBuilder().withType("RollingUpdate").withNewRollingUpdate()
                .withMaxUnavailable(new IntOrString(1)).withMaxSurge(new IntOrString(0)).endRollingUpdate().build();
    }

    /** The taint every GPU node carries, which the stack's pods tolerate. */
    static Toleration gpuToleration() {
        return new TolerationBuilder().withKey("nvidia.com/gpu").withOperator("Exists").withEffect("NoSchedule").build();
    }

    /**
     * The scheduler's FailedScheduling event of a pod: the first occurrence, or (count above 1) the series it has
     * grown into, last seen at {@code last}.
     */
    static Event failedScheduling(String namespace, String pod, String podUid, String name, String uid, Instant first,
                                  Instant last, int count, String message) {
        EventBuilder event = new EventBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace).withUid(uid)
                .withCreationTimestamp(Rfc3339.format(first)).endMetadata()
                .withNewInvolvedObject().withApiVersion("v1").withKind("Pod").withNamespace(namespace).withName(pod)
                .withUid(podUid).endInvolvedObject()
                .withType("Warning").withReason("FailedScheduling").withAction("Scheduling").withMessage(message)
                .withReportingComponent("default-scheduler").withReportingInstance("default-scheduler-control-plane-01")
                .withNewSource().endSource()
                .withEventTime(new MicroTime(MICRO.format(first)));
        if (count > 1) {
            event.withNewSeries().withCount(count).withLastObservedTime(new MicroTime(MICRO.format(last))).endSeries();
        }
        return event.build();
    }
}
