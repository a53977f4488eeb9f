package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.launcher.simulator.PodStatuses.condition;

/**
 * The GPU stack's pods at each step — being created, starting, ready, crash-looping, stopped — shaped as the
 * DaemonSet controller and the kubelet leave them.
 */
final class StackPodObjects {

    /** What the kubelet writes for a container that failed again and waits out its back-off. */
    static final String CRASH_LOOP = "CrashLoopBackOff";

    /** How far a stack pod has got. */
    enum Stage { CREATING, STARTING, READY, CRASH_LOOP, STOPPED }

    /**
     * One snapshot's view of the pod.
     *
     * @param since        when the containers last started (running since), stopped (STOPPED), or first failed
     *                     (CRASH_LOOP: unready since)
     * @param restarts     the main container's restart count
     * @param lastStarted  when the main container's last failed run started; null if it never failed
     * @param lastFinished when that run ended
     * @param backOff      the back-off a crash-looping container waits, in seconds
     * @param deletion     deletionTimestamp, null unless a delete was asked for
     * @param grace        deletionGracePeriodSeconds with it
     */
    record View(Stage stage, Instant since, int restarts, Instant lastStarted, Instant lastFinished, long backOff,
                Instant deletion, Long grace) {

        static View of(Stage stage, Instant since) {
            return new View(stage, since, 0, null, null, 0, null, null);
        }

        View deleting(Instant deletionTimestamp, long graceSeconds) {
            return new View(stage, since, restarts, lastStarted, lastFinished, backOff, deletionTimestamp, graceSeconds);
        }
    }

    private StackPodObjects() {
    }

    /** The pod of {@code p} as {@code v} shows it. */
    static Pod pod(StackPod p, String daemonSetUid, View v) {
        StackComponent c = p.component();
        Map<String, String> labels = new LinkedHashMap<>(c.selector());
        labels.put("controller-revision-hash", p.revision());
        labels.put("pod-template-generation", Long.toString(p.generation()));
        List<Toleration> tolerations = new ArrayList<>();
        tolerations.add(StackObjects.gpuToleration());
        // what the DaemonSet controller adds to every pod it makes
        for (String[] t : new String[][] {{"node.kubernetes.io/not-ready", "NoExecute"},
                {"node.kubernetes.io/unreachable", "NoExecute"}, {"node.kubernetes.io/disk-pressure", "NoSchedule"},
                {"node.kubernetes.io/memory-pressure", "NoSchedule"}, {"node.kubernetes.io/pid-pressure", "NoSchedule"},
                {"node.kubernetes.io/unschedulable", "NoSchedule"}}) {
            tolerations.add(new TolerationBuilder().withKey(t[0]).withOperator("Exists").withEffect(t[1]).build());
        }
        return new PodBuilder()
                .withNewMetadata()
                .withName(p.name()).withGenerateName(c.daemonSet() + "-").withNamespace(c.namespace()).withUid(p.uid())
                .withCreationTimestamp(Rfc3339.format(p.createdAt()))
                .withDeletionTimestamp(Rfc3339.format(v.deletion())).withDeletionGracePeriodSeconds(v.grace())
                .withLabels(labels)
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("DaemonSet").withName(c.daemonSet())
                .withUid(daemonSetUid).withController(true).withBlockOwnerDeletion(true).endOwnerReference()
                .endMetadata()
                .withNewSpec()
                .withNodeName(p.node().name())
                .withNewAffinity().withNewNodeAffinity().withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm().addNewMatchField().withKey("metadata.name").withOperator("In")
                .withValues(p.node().name()).endMatchField().endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity()
                .withNodeSelector(c.nodeSelector())
                .withContainers(c.containers().stream().map(name -> new io.fabric8.kubernetes.api.model.ContainerBuilder()
                        .withName(name).withImage(p.image()).withImagePullPolicy("IfNotPresent").build()).toList())
                .withTolerations(tolerations)
                .withPriorityClassName("system-node-critical")
                .withServiceAccountName(c.serviceAccount())
                .withRestartPolicy("Always")
                .withTerminationGracePeriodSeconds(30L)
                .withSchedulerName("default-scheduler")
                .endSpec()
                .withStatus(status(p, v))
                .build();
    }

    private static io.fabric8.kubernetes.api.model.PodStatus status(StackPod p, View v) {
        Instant created = p.createdAt();
        PodStatusBuilder status = new PodStatusBuilder().withQosClass("BestEffort")
                .withHostIP(p.node().hostIp()).withStartTime(Rfc3339.format(created));
        List<String> containers = p.component().containers();
        String main = containers.get(0);
        List<ContainerStatus> statuses = new ArrayList<>();
        for (int i = 0; i < containers.size(); i++) {
            statuses.add(container(p, containers.get(i), p.containerIds().get(i), i == 0, v));
        }
        boolean ready = v.stage() == Stage.READY;
        String unready = v.stage() == Stage.CRASH_LOOP ? "[" + main + "]" : "[" + String.join(" ", containers) + "]";
        List<PodCondition> conditions = new ArrayList<>();
        Instant initialized = created.plusSeconds(2);
        switch (v.stage()) {
            case CREATING -> {
                conditions.add(condition("PodReadyToStartContainers", "False", null, null, created));
                conditions.add(condition("Initialized", "False", "ContainersNotInitialized",
                        "containers with incomplete status: [" + main + "]", created));
                status.withPhase("Pending");
            }
            case STOPPED -> {
                conditions.add(condition("PodReadyToStartContainers", "False", null, null, v.since()));
                conditions.add(condition("Initialized", "True", null, null, initialized));
                status.withPhase("Succeeded").withPodIP(p.podIp());
            }
            default -> {
                conditions.add(condition("PodReadyToStartContainers", "True", null, null, initialized));
                conditions.add(condition("Initialized", "True", null, null, initialized));
                status.withPhase("Running").withPodIP(p.podIp());
            }
        }
        Instant readySince = v.stage() == Stage.CREATING || v.stage() == Stage.STARTING ? created : v.since();
        String reason = ready ? null : v.stage() == Stage.STOPPED ? "PodCompleted" : "ContainersNotReady";
        String message = ready || v.stage() == Stage.STOPPED ? null : "containers with unready status: " + unready;
        conditions.add(condition("Ready", ready ? "True" : "False", reason, message, readySince));
        conditions.add(condition("ContainersReady", ready ? "True" : "False", reason, message, readySince));
        conditions.add(condition("PodScheduled", "True", null, null, created));
        return status.withConditions(conditions).withContainerStatuses(statuses).build();
    }

    private static ContainerStatus container(StackPod p, String name, String containerId, boolean main, View v) {
        ContainerStatusBuilder s = new ContainerStatusBuilder().withName(name).withImage(p.image())
                .withRestartCount(main ? v.restarts() : 0);
        if (v.stage() == Stage.CREATING) {
            return s.withReady(false).withStarted(false)
                    .withNewState().withNewWaiting().withReason("ContainerCreating").endWaiting().endState().build();
        }
        s.withImageID(imageId(p.image())).withContainerID(containerId);
        if (main && v.lastFinished() != null) {
            s.withNewLastState().withNewTerminated().withExitCode(1).withReason("Error")
                    .withStartedAt(Rfc3339.format(v.lastStarted())).withFinishedAt(Rfc3339.format(v.lastFinished()))
                    .withContainerID(containerId).endTerminated().endLastState();
        }
        return switch (v.stage()) {
            case CRASH_LOOP -> main
                    ? s.withReady(false).withStarted(false).withNewState().withNewWaiting().withReason(CRASH_LOOP)
                    .withMessage("back-off " + v.backOff() + "s restarting failed container=" + name + " pod="
                            + p.name() + "_" + p.component().namespace() + "(" + p.uid() + ")")
                    .endWaiting().endState().build()
                    : running(s, p.createdAt().plusSeconds(3), true);
            // the driver's startup probe holds it unready while it builds and loads the kernel modules
            case STARTING -> running(s, v.since(), false);
            case READY -> running(s, main ? v.since() : p.createdAt().plusSeconds(3), true);
            case STOPPED -> s.withReady(false).withStarted(false).withNewState().withNewTerminated().withExitCode(0)
                    .withReason("Completed").withStartedAt(Rfc3339.format(p.createdAt().plusSeconds(3)))
                    .withFinishedAt(Rfc3339.format(v.since())).withContainerID(containerId).endTerminated().endState()
                    .build();
            case CREATING -> throw new IllegalStateException("handled above");
        };
    }

    private static ContainerStatus running(ContainerStatusBuilder s, Instant since, boolean ready) {
        return s.withReady(ready).withStarted(ready)
                .withNewState().withNewRunning().withStartedAt(Rfc3339.format(since)).endRunning().endState().build();
    }

    /** A digest for an image: derived from its name, as stable as a registry's digest of one tag. */
    static String imageId(String image) {
        String repository = image.substring(0, image.lastIndexOf(':'));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(image.getBytes(StandardCharsets.UTF_8));
            return repository + "@sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
