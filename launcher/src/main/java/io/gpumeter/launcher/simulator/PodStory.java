package io.gpumeter.launcher.simulator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** One pod's planned life while the history is being made; {@link SimPod} is what remains of it. */
final class PodStory {

    /** How the pod is meant to end, before the end of the history cuts it. */
    enum Plot { COMPLETE, GRACEFUL_DELETE, FORCED_DELETE, RUN_ON }

    static final long GRACE_SECONDS = 30;
    /** Far enough past any history that "run on" never ends inside it. */
    static final Duration FOREVER = Duration.ofDays(3650);

    Template template;
    String namespace;
    String name;
    String uid;
    PodOwner owner;
    String project;
    String podIp;
    /** The host part of the pod IP inside its node's pod CIDR. */
    int podHost;
    String containerId;

    int wholeCards;
    long gpumem;
    int gpucores;
    boolean coresDeclared;
    MigProfile migProfile;
    /** The pod's nodeSelector; null for none. */
    java.util.Map<String, String> nodeSelector;
    /** What the scheduler says while it cannot place the pod; null for the fleet's usual words. */
    String unschedulableMessage;
    /** Of a pod a Volcano Job made: the job's queue and the pod's task, as its labels say; null for other pods. */
    String volcanoQueue;
    String volcanoTask;
    /** The Volcano PodGroup of the job, as the pod's scheduling.k8s.io/group-name annotation names it. */
    String volcanoPodGroup;

    Instant createdAt;
    long pullSeconds;
    Duration runFor;
    Plot plot;
    int exitCode;
    String reason;
    /** Seconds from the delete request until the containers stop (at most the grace period). */
    long stopSeconds;
    /** Seconds from finishing until a Job's TTL controller deletes the pod; negative: never. */
    long ttlSeconds = -1;

    // placement
    Instant scheduledAt;
    String nodeName;
    String hostIp;
    final List<Grant> grants = new ArrayList<>();

    PodStory ending(Plot plot, Duration runFor) {
        this.plot = plot;
        this.runFor = runFor;
        return this;
    }

    PodStory exit(int exitCode, String reason) {
        this.exitCode = exitCode;
        this.reason = reason;
        return this;
    }

    PodStory stop(long stopSeconds, int exitCode, String reason) {
        this.stopSeconds = stopSeconds;
        return exit(exitCode, reason);
    }

    PodStory ttl(long ttlSeconds) {
        this.ttlSeconds = ttlSeconds;
        return this;
    }

    boolean queued() {
        return scheduledAt == null || scheduledAt.isAfter(createdAt.plusSeconds(5));
    }

    Instant startedAt() {
        return scheduledAt.plusSeconds(pullSeconds);
    }

    Instant deletionRequestedAt() {
        return plot == Plot.GRACEFUL_DELETE ? startedAt().plus(runFor) : null;
    }

    Instant finishedAt() {
        return switch (plot) {
            case COMPLETE -> startedAt().plus(runFor);
            case GRACEFUL_DELETE -> deletionRequestedAt().plusSeconds(stopSeconds);
            case FORCED_DELETE, RUN_ON -> null;
        };
    }

    /** When the GPUs are given back: the containers finished, or the pod vanished under a forced delete. */
    Instant releasedAt() {
        return scheduledAt.plus(holdFor());
    }

    Instant deletedAt() {
        return switch (plot) {
            case COMPLETE -> ttlSeconds < 0 ? null : finishedAt().plusSeconds(ttlSeconds);
            case GRACEFUL_DELETE -> finishedAt().plusSeconds(1);
            case FORCED_DELETE -> releasedAt();
            case RUN_ON -> null;
        };
    }

    /** How long the GPUs are held once the pod is bound to a node. */
    Duration holdFor() {
        Duration running = Duration.ofSeconds(pullSeconds).plus(runFor);
        return switch (plot) {
            case COMPLETE, FORCED_DELETE -> running;
            case GRACEFUL_DELETE -> running.plusSeconds(stopSeconds);
            case RUN_ON -> running.plus(FOREVER);
        };
    }
}
