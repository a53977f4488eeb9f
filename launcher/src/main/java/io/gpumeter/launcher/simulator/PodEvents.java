package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;

import static io.gpumeter.launcher.simulator.PodObjects.Stage;

/**
 * Turns one pod's story into the watch events Kubernetes would emit: created Pending, maybe marked Unschedulable,
 * bound to a node, running, then one of three endings. A graceful delete sets deletionTimestamp to the request plus
 * the grace period; the final delete the kubelet issues once containers stopped shortens the grace period to 0,
 * which moves deletionTimestamp back to the request instant (as the API server's BeforeDelete does).
 */
final class PodEvents {

    private PodEvents() {
    }

    static void add(PodStory s, Timeline timeline) {
        timeline.add(s.createdAt, EventType.ADDED, PodObjects.snapshot(s, Stage.PENDING, null, null));
        if (s.queued()) {
            timeline.add(s.createdAt.plusSeconds(1), EventType.MODIFIED,
                    PodObjects.snapshot(s, Stage.UNSCHEDULABLE, null, null));
        }
        if (s.scheduledAt == null) {
            return;
        }
        timeline.add(s.scheduledAt, EventType.MODIFIED, PodObjects.snapshot(s, Stage.BOUND, null, null));
        timeline.add(s.startedAt(), EventType.MODIFIED, PodObjects.snapshot(s, Stage.RUNNING, null, null));
        switch (s.plot) {
            case COMPLETE -> {
                timeline.add(s.finishedAt(), EventType.MODIFIED, PodObjects.snapshot(s, Stage.TERMINATED, null, null));
                Instant deleted = s.deletedAt();
                if (deleted != null) {
                    // a terminated pod is deleted at once: grace period 0
                    timeline.add(deleted, EventType.DELETED, PodObjects.snapshot(s, Stage.TERMINATED, deleted, 0L));
                }
            }
            case GRACEFUL_DELETE -> {
                Instant requested = s.deletionRequestedAt();
                Instant deadline = requested.plusSeconds(PodStory.GRACE_SECONDS);
                timeline.add(requested, EventType.MODIFIED,
                        PodObjects.snapshot(s, Stage.RUNNING, deadline, PodStory.GRACE_SECONDS));
                timeline.add(s.finishedAt(), EventType.MODIFIED,
                        PodObjects.snapshot(s, Stage.TERMINATED, deadline, PodStory.GRACE_SECONDS));
                timeline.add(s.deletedAt(), EventType.DELETED,
                        PodObjects.snapshot(s, Stage.TERMINATED, requested, 0L));
            }
            case FORCED_DELETE -> {
                Pod last = PodObjects.snapshot(s, Stage.RUNNING, s.deletedAt(), 0L);
                timeline.add(s.deletedAt(), EventType.DELETED, last);
            }
            case RUN_ON -> {
            }
        }
    }
}
