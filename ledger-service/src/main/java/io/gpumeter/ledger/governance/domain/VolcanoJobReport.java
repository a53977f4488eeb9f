package io.gpumeter.ledger.governance.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The Volcano Jobs that finished in a window, per group: how many, how they ended, their GPU-hours, their retries and
 * how long they queued, with the group's jobs listed (the most recently finished first).
 */
public final class VolcanoJobReport {

    /** Figures that are ratios or hours carry this many decimals. */
    static final int SCALE = 6;

    /**
     * One finished job.
     *
     * @param state       its final phase: Completed, Failed, Aborted or Terminated
     * @param reason      status.state.reason of that phase, as Volcano wrote it
     * @param runningAt   when it first ran (null when no source says)
     * @param waitSeconds creation to {@code runningAt}, null when that is not known
     * @param retries     status.retryCount: how often its controller restarted it
     * @param pods        the pods of the job that held GPUs
     * @param gpuHours    the allocated card-equivalent hours of those pods over their whole lives
     */
    public record Job(String cluster, String namespace, String name, String uid, String queue, String tenant,
                      String state, String reason, Instant createdAt, Instant runningAt, Instant finishedAt,
                      BigDecimal waitSeconds, int retries, int pods, BigDecimal gpuHours) {

        boolean succeeded() {
            return VolcanoJobTrail.COMPLETED.equals(state);
        }
    }

    /**
     * How long a group's jobs queued, creation to first Running, by nearest rank over the jobs whose wait is known.
     *
     * @param jobs       the jobs whose wait is known
     * @param longestJob "namespace/name" of the job that waited longest
     */
    public record Queueing(int jobs, BigDecimal p50Seconds, BigDecimal p95Seconds, BigDecimal maxSeconds,
                           String longestJob) {
    }

    /**
     * One group.
     *
     * @param finished                the jobs that finished in the window
     * @param states                  how many ended in each final phase
     * @param successRate             Completed / finished
     * @param gpuHours                the finished jobs' GPU-hours, summed as listed per job
     * @param gpuHoursPerJob          gpuHours / finished
     * @param gpuHoursPerCompletedJob gpuHours / Completed: what one successful job cost, failures included; null
     *                                without one
     * @param retries                 the finished jobs' retries, summed
     * @param retriedJobs             the finished jobs restarted at least once
     * @param jobs                    the first {@code jobsPerGroup} of them, the most recently finished first
     */
    public record Group(String groupBy, String key, int finished, Map<String, Integer> states, BigDecimal successRate,
                        BigDecimal gpuHours, BigDecimal gpuHoursPerJob, BigDecimal gpuHoursPerCompletedJob, int retries,
                        int retriedJobs, Queueing queueing, List<Job> jobs) {
    }

    private static final Comparator<Job> RECENT_FIRST = Comparator.comparing(Job::finishedAt).reversed()
            .thenComparing(Job::namespace).thenComparing(Job::name).thenComparing(Job::uid);

    private VolcanoJobReport() {
    }

    /** The groups, by key; a job without a key falls in "unknown". */
    public static List<Group> of(String groupBy, List<Job> jobs, Function<Job, String> key, int jobsPerGroup) {
        Map<String, List<Job>> byKey = new TreeMap<>();
        for (Job j : jobs) {
            String k = key.apply(j);
            byKey.computeIfAbsent(k == null ? "unknown" : k, x -> new ArrayList<>()).add(j);
        }
        List<Group> groups = new ArrayList<>();
        byKey.forEach((k, members) -> groups.add(group(groupBy, k, members, jobsPerGroup)));
        return groups;
    }

    static Group group(String groupBy, String key, List<Job> jobs, int jobsPerGroup) {
        Map<String, Integer> states = new TreeMap<>();
        BigDecimal hours = BigDecimal.ZERO;
        int succeeded = 0;
        int retries = 0;
        int retried = 0;
        for (Job j : jobs) {
            states.merge(j.state(), 1, Integer::sum);
            hours = hours.add(j.gpuHours());
            succeeded += j.succeeded() ? 1 : 0;
            retries += j.retries();
            retried += j.retries() > 0 ? 1 : 0;
        }
        int finished = jobs.size();
        return new Group(groupBy, key, finished, states, ratio(BigDecimal.valueOf(succeeded), finished),
                hours.stripTrailingZeros(), ratio(hours, finished), succeeded == 0 ? null : ratio(hours, succeeded),
                retries, retried, queueing(jobs), jobs.stream().sorted(RECENT_FIRST).limit(jobsPerGroup).toList());
    }

    static Queueing queueing(List<Job> jobs) {
        List<Job> waited = jobs.stream().filter(j -> j.waitSeconds() != null)
                .sorted(Comparator.comparing(Job::waitSeconds).thenComparing(Job::namespace).thenComparing(Job::name))
                .toList();
        if (waited.isEmpty()) {
            return new Queueing(0, null, null, null, null);
        }
        int n = waited.size();
        Job longest = waited.get(n - 1);
        return new Queueing(n, waited.get(NearestRank.rank(50, n) - 1).waitSeconds(),
                waited.get(NearestRank.rank(95, n) - 1).waitSeconds(), longest.waitSeconds(),
                longest.namespace() + "/" + longest.name());
    }

    /** Card-equivalent seconds as the report lists them: in hours, six decimals. */
    public static BigDecimal hours(BigDecimal seconds) {
        return seconds.divide(BigDecimal.valueOf(3600), SCALE, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }

    private static BigDecimal ratio(BigDecimal part, int whole) {
        return part.divide(BigDecimal.valueOf(whole), SCALE, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }
}
