package io.gpumeter.launcher.simulator;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * What really happened to one simulated Volcano Job (batch.volcano.sh/v1alpha1), as far as the history shows it.
 *
 * @param podGroup      the PodGroup Volcano made for it, {@code <name>-<uid>}
 * @param image         its workers' image
 * @param workers       the replicas of its one task, each asking for {@code cardsPerWorker} whole cards
 * @param maxRetry      how often its controller may restart it before it fails
 * @param phases        its status.state history up to the end of the history: each phase, when it was entered and the
 *                      retryCount then; the first is Pending at creation
 * @param podUids       the pods its controller made, attempt after attempt
 */
public record SimVolcanoJob(String uid, String namespace, String name, String podGroup, String queue, String image,
                            int workers, int cardsPerWorker, int maxRetry, Instant createdAt, List<Phase> phases,
                            List<String> podUids) {

    /** The capability in nvidia.com/gpu of the Volcano queue the jobs go to. */
    public static final int QUEUE_GPUS = 8;

    /** The phases a Volcano Job ends in. */
    public static final Set<String> FINISHED = Set.of("Completed", "Failed", "Aborted", "Terminated");

    /** One entry of the job's status.state history. */
    public record Phase(String phase, String reason, Instant at, int retryCount) {
    }

    public SimVolcanoJob {
        phases = List.copyOf(phases);
        podUids = List.copyOf(podUids);
    }

    public Phase last() {
        return phases.get(phases.size() - 1);
    }

    public String state() {
        return last().phase();
    }

    public boolean finished() {
        return FINISHED.contains(state());
    }

    /** When it first ran; null while it never did. */
    public Instant runningAt() {
        return phases.stream().filter(p -> p.phase().equals("Running")).map(Phase::at).findFirst().orElse(null);
    }

    public int retries() {
        return last().retryCount();
    }
}
