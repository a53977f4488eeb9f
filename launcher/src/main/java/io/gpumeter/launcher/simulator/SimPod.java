package io.gpumeter.launcher.simulator;

import java.time.Instant;
import java.util.List;

/**
 * What really happened to one simulated pod, as far as the history shows it; instants the history does not reach
 * (they fall at or after its end) are null.
 *
 * @param owner               null for a bare pod
 * @param nodeName            null while never scheduled
 * @param grants              the GPU pieces held from {@code scheduledAt} on; empty while never scheduled
 * @param deletionRequestedAt when a graceful delete was asked for (deletionTimestamp minus the 30 s grace)
 * @param releasedAt          when the GPUs were given back: containers finished, or forced delete; null while held
 * @param exitCode            exit code of the terminated container, null while it did not terminate
 */
public record SimPod(String uid, String namespace, String name, GpuPool pool, PodOwner owner, String nodeName,
                     List<Grant> grants, Instant createdAt, Instant scheduledAt, Instant startedAt,
                     Instant deletionRequestedAt, Instant finishedAt, Instant releasedAt, Instant deletedAt,
                     PodEnding ending, Integer exitCode) {

    public SimPod {
        grants = List.copyOf(grants);
    }

    /** True when the pod held its GPUs at {@code at}: scheduled at or before it, not yet released. */
    public boolean holdsAt(Instant at) {
        return scheduledAt != null && !scheduledAt.isAfter(at) && (releasedAt == null || releasedAt.isAfter(at));
    }

    /** True when the pod held GPU {@code gpuUuid} at {@code at}. */
    public boolean holdsAt(String gpuUuid, Instant at) {
        return holdsAt(at) && grants.stream().anyMatch(g -> g.gpuUuid().equals(gpuUuid));
    }
}
