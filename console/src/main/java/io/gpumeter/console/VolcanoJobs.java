package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The Queues page's Volcano jobs, from the ledger's {@code GET /api/v1/volcano-jobs} per queue: how the jobs that
 * finished in the window did in each queue, and the jobs each queue lists. Job names, namespaces and queues are
 * written by tenants: they reach the page only as template values, which the HTML template escapes.
 */
final class VolcanoJobs {

    /** How many jobs of each queue the page lists, the most recently finished first. */
    static final int JOBS_PER_QUEUE = 10;

    private VolcanoJobs() {
    }

    /** A queue's finished jobs: by their end state, their GPU-hours and retries, how long they queued. */
    @TemplateData
    @RegisterForReflection
    record Queue(String key, int finished, Map<String, Integer> states, BigDecimal successRate, BigDecimal gpuHoursPerJob,
                 BigDecimal gpuHoursPerCompletedJob, int retries, Queueing queueing, List<Job> jobs) {

        public int completed() {
            return states == null ? 0 : states.getOrDefault("Completed", 0);
        }

        public Queueing waits() {
            return queueing == null ? new Queueing(null, null, null) : queueing;
        }
    }

    /** How long the queue's jobs waited from creation to their first Running, and which waited longest. */
    @TemplateData
    @RegisterForReflection
    record Queueing(BigDecimal p95Seconds, BigDecimal maxSeconds, String longestJob) {
    }

    /** One finished job. */
    @TemplateData
    @RegisterForReflection
    record Job(String namespace, String name, String queue, String state, BigDecimal gpuHours, int pods, int retries,
               BigDecimal waitSeconds, String finishedAt) {

        public String job() {
            return namespace + "/" + name;
        }
    }

    /** What the section shows: the queues and their jobs; {@code more} when a queue finished more than it lists. */
    @TemplateData
    record Section(List<Queue> queues, List<Job> jobs, boolean more) {
    }

    /** The ledger read for the page's days, per queue. */
    static String path(Days days) {
        return "/api/v1/volcano-jobs?" + days.query() + "&groupBy=queue&jobsPerGroup=" + JOBS_PER_QUEUE;
    }

    static Section of(List<Queue> queues) {
        List<Job> jobs = queues.stream().flatMap(q -> (q.jobs() == null ? List.<Job>of() : q.jobs()).stream()).toList();
        boolean more = queues.stream().anyMatch(q -> (q.jobs() == null ? 0 : q.jobs().size()) < q.finished());
        return new Section(queues, jobs, more);
    }
}
