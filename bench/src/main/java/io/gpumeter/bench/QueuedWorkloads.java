package io.gpumeter.bench;

import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodSetAssignment;
import io.gpumeter.common.fact.PodSetRequest;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.fact.WorkloadFact;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Kueue Workloads for the pods of {@link FleetMonth}'s HAMi pool, as Kueue shops run them: each pod's Job queued in its
 * namespace's LocalQueue, refused for want of quota, and admitted into its team's ClusterQueue of the pool
 * ({@code h100-team-0} to {@code -2}) when its pod starts, after a wait of up to {@code maxWait}. Deterministic by seed, and drawing from a random of its own, so that the
 * month's pods are the same with or without their workloads.
 */
final class QueuedWorkloads {

    private static final String GPU = "nvidia.com/gpu";
    private static final String API = "kueue.x-k8s.io/v1beta1";

    private final SplittableRandom random;
    private final long maxWaitSeconds;
    private final List<WorkloadFact> out = new ArrayList<>();
    private long revision = 1;

    QueuedWorkloads(long seed, Duration maxWait) {
        this.random = new SplittableRandom(seed);
        this.maxWaitSeconds = Math.max(2, maxWait.toSeconds());
    }

    /** The workload of a pod of {@code team} that started at {@code admitted}: created, refused, then admitted. */
    void admitted(String podUid, String namespace, String team, Owner job, Instant admitted) {
        String clusterQueue = "h100-" + team;
        Instant created = admitted.minusSeconds(random.nextLong(1, maxWaitSeconds));
        String uid = "wl-" + podUid;
        String name = "job-" + job.name();
        String queue = namespace + "-queue";
        List<PodSetRequest> podSets = List.of(new PodSetRequest("main", 1, Map.of(GPU, BigDecimal.ONE), null));
        ObjectCondition refused = new ObjectCondition("QuotaReserved", "False", "Pending",
                "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor h100, "
                        + "1 more needed", created);
        out.add(new WorkloadFact(uid, namespace, name, rv(), WatchEventType.ADDED, created, API, created, null, queue, 0,
                null, true, job, podSets, null, List.of(), List.of(refused), List.of(), null));
        List<PodSetAssignment> assigned = List.of(new PodSetAssignment("main", 1, Map.of(GPU, clusterQueue),
                Map.of(GPU, BigDecimal.ONE)));
        List<ObjectCondition> conditions = List.of(
                new ObjectCondition("QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue " + clusterQueue, admitted),
                new ObjectCondition("Admitted", "True", "Admitted", "The workload is admitted", admitted));
        out.add(new WorkloadFact(uid, namespace, name, rv(), WatchEventType.MODIFIED, admitted, API, created, null, queue,
                0, null, true, job, podSets, clusterQueue, assigned, conditions, List.of(), null));
    }

    /** The versions made since the last call, oldest first. */
    List<WorkloadFact> drain() {
        List<WorkloadFact> made = List.copyOf(out);
        out.clear();
        return made;
    }

    private String rv() {
        return Long.toString(revision++);
    }
}
