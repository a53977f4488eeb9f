package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.launcher.simulator.PodObjects.Stage;

/**
 * A workload pod's status at each stage, as the scheduler (its PodScheduled condition) and the kubelet (phase,
 * conditions, container state) leave it.
 */
final class PodStatuses {

    private PodStatuses() {
    }

    static PodStatus status(PodStory s, Stage stage) {
        PodStatusBuilder status = new PodStatusBuilder().withQosClass("Burstable");
        switch (stage) {
            case PENDING -> status.withPhase("Pending");
            case UNSCHEDULABLE -> status.withPhase("Pending").withConditions(condition("PodScheduled", "False",
                    "Unschedulable", unschedulableMessage(s), s.createdAt.plusSeconds(1)));
            case BOUND -> status.withPhase("Pending")
                    .withConditions(condition("PodScheduled", "True", null, null, s.scheduledAt));
            case RUNNING -> status.withPhase("Running")
                    .withHostIP(s.hostIp).withPodIP(s.podIp).withStartTime(Rfc3339.format(started(s)))
                    .withConditions(runningConditions(s))
                    .withContainerStatuses(running(s));
            case TERMINATED -> status.withPhase(s.exitCode == 0 ? "Succeeded" : "Failed")
                    .withHostIP(s.hostIp).withPodIP(s.podIp).withStartTime(Rfc3339.format(started(s)))
                    .withConditions(terminatedConditions(s))
                    .withContainerStatuses(terminated(s));
        }
        return status.build();
    }

    /** The kubelet acknowledges the pod a second after binding. */
    private static Instant started(PodStory s) {
        return s.scheduledAt.plusSeconds(1);
    }

    private static String unschedulableMessage(PodStory s) {
        if (s.unschedulableMessage != null) {
            return s.unschedulableMessage;
        }
        String resource = s.template.pool == GpuPool.MIG ? s.migProfile.resourceName() : "nvidia.com/gpu";
        return "0/4 nodes are available: 4 Insufficient " + resource
                + ". preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.";
    }

    private static List<PodCondition> runningConditions(PodStory s) {
        List<PodCondition> conditions = new ArrayList<>();
        conditions.add(condition("PodReadyToStartContainers", "True", null, null, started(s)));
        conditions.add(condition("Initialized", "True", null, null, started(s)));
        conditions.add(condition("Ready", "True", null, null, s.startedAt()));
        conditions.add(condition("ContainersReady", "True", null, null, s.startedAt()));
        conditions.add(condition("PodScheduled", "True", null, null, s.scheduledAt));
        return conditions;
    }

    private static List<PodCondition> terminatedConditions(PodStory s) {
        String reason = s.exitCode == 0 ? "PodCompleted" : "PodFailed";
        Instant finished = s.finishedAt();
        List<PodCondition> conditions = new ArrayList<>();
        conditions.add(condition("PodReadyToStartContainers", "False", null, null, finished));
        conditions.add(condition("Initialized", "True", null, null, started(s)));
        conditions.add(condition("Ready", "False", reason, null, finished));
        conditions.add(condition("ContainersReady", "False", reason, null, finished));
        conditions.add(condition("PodScheduled", "True", null, null, s.scheduledAt));
        return conditions;
    }

    /** A pod condition that last changed at {@code at}; reason and message may be null. */
    static PodCondition condition(String type, String status, String reason, String message, Instant at) {
        return new PodConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
                .withLastTransitionTime(Rfc3339.format(at)).build();
    }

    private static ContainerStatus running(PodStory s) {
        return base(s).withReady(true).withStarted(true)
                .withNewState().withNewRunning().withStartedAt(Rfc3339.format(s.startedAt())).endRunning().endState()
                .build();
    }

    private static ContainerStatus terminated(PodStory s) {
        return base(s).withReady(false).withStarted(false)
                .withNewState().withNewTerminated()
                .withExitCode(s.exitCode).withReason(s.reason)
                .withStartedAt(Rfc3339.format(s.startedAt())).withFinishedAt(Rfc3339.format(s.finishedAt()))
                .withContainerID(s.containerId)
                .endTerminated().endState()
                .build();
    }

    private static ContainerStatusBuilder base(PodStory s) {
        return new ContainerStatusBuilder()
                .withName(s.template.container)
                .withImage(s.template.image)
                .withImageID(s.template.image + "@sha256:" + s.containerId.substring("containerd://".length()))
                .withContainerID(s.containerId)
                .withRestartCount(0);
    }
}
