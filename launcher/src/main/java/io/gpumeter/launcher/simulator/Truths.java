package io.gpumeter.launcher.simulator;

import java.time.Instant;
import java.util.List;

/** Reduces a story to what its events show: anything at or after the end of the history is not known yet. */
final class Truths {

    private Truths() {
    }

    static SimPod of(PodStory s, Instant end) {
        Instant scheduled = seen(s.scheduledAt, end);
        if (scheduled == null) {
            return new SimPod(s.uid, s.namespace, s.name, s.template.pool, s.owner, null, List.of(),
                    s.createdAt, null, null, null, null, null, null, PodEnding.PENDING_AT_END, null);
        }
        Instant released = seen(s.releasedAt(), end);
        Instant finished = seen(s.finishedAt(), end);
        PodEnding ending = released == null ? PodEnding.RUNNING_AT_END : switch (s.plot) {
            case COMPLETE -> PodEnding.COMPLETED;
            case GRACEFUL_DELETE -> PodEnding.GRACEFUL_DELETE;
            case FORCED_DELETE -> PodEnding.FORCED_DELETE;
            case RUN_ON -> PodEnding.RUNNING_AT_END;
        };
        return new SimPod(s.uid, s.namespace, s.name, s.template.pool, s.owner, s.nodeName, s.grants, s.createdAt,
                scheduled, seen(s.startedAt(), end), seen(s.deletionRequestedAt(), end), finished, released,
                seen(s.deletedAt(), end), ending, finished == null ? null : s.exitCode);
    }

    private static Instant seen(Instant at, Instant end) {
        return at != null && at.isBefore(end) ? at : null;
    }
}
