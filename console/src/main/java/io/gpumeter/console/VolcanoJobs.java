package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The Queues page's Volcano jobs, from the ledger's {@code GET /api/v1/volcano-jobs} per queue: how the jobs that
 * finished in the window did in each queue, and the jobs each queue lists. Job names, namespaces and queues are
 * written by tenants: they reach the page only as template values, which the HTML template escapes.
 */
final class VolcanoJobs {

    /** How many jobs of each queue the page lists, the most recently finished first. */
    static final int JOBS_PER_QUEUE = 10;

    /** A queue's finished jobs, in the page's words. */
    @TemplateData
    record QueueRow(String queue, int finished, int completed, String successRate, String gpuHoursPerJob,
                    String gpuHoursPerSuccess, int retries, String waitP95, String longestWait, String longestJob) {
    }

    /** One finished job. */
    @TemplateData
    record JobRow(String job, String queue, String state, String gpuHours, int pods, int retries, String waited,
                  String finishedAt) {
    }

    /** What the section shows; empty lists when nothing finished in the window. */
    @TemplateData
    record Section(List<QueueRow> queues, List<JobRow> jobs, boolean more) {
    }

    private VolcanoJobs() {
    }

    /** The ledger read for the page's days, per queue. */
    static String path(Days days) {
        return "/api/v1/volcano-jobs?" + days.query() + "&groupBy=queue&jobsPerGroup=" + JOBS_PER_QUEUE;
    }

    static Section of(JsonNode groups) {
        List<QueueRow> queues = new ArrayList<>();
        List<JobRow> jobs = new ArrayList<>();
        boolean more = false;
        for (JsonNode g : groups) {
            String queue = Format.text(g, "key");
            JsonNode queueing = g.path("queueing");
            int finished = g.path("finished").asInt();
            queues.add(new QueueRow(queue, finished, g.path("states").path("Completed").asInt(),
                    Format.percent(Format.decimalOrNull(g, "successRate")), hours(g, "gpuHoursPerJob"),
                    hours(g, "gpuHoursPerCompletedJob"), g.path("retries").asInt(),
                    Format.duration(Format.decimalOrNull(queueing, "p95Seconds")),
                    Format.duration(Format.decimalOrNull(queueing, "maxSeconds")),
                    orBlank(Format.text(queueing, "longestJob"))));
            for (JsonNode j : g.path("jobs")) {
                jobs.add(new JobRow(Format.text(j, "namespace") + "/" + Format.text(j, "name"), queue,
                        orBlank(Format.text(j, "state")), hours(j, "gpuHours"), j.path("pods").asInt(),
                        j.path("retries").asInt(), Format.duration(Format.decimalOrNull(j, "waitSeconds")),
                        orBlank(Format.text(j, "finishedAt"))));
            }
            more |= g.path("jobs").size() < finished;
        }
        return new Section(queues, jobs, more);
    }

    private static String hours(JsonNode node, String field) {
        BigDecimal value = Format.decimalOrNull(node, field);
        return value == null ? "" : Format.number(value);
    }

    private static String orBlank(String text) {
        return text == null ? "" : text;
    }
}
