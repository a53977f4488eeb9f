package io.gpumeter.launcher.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.simulator.SimVolcanoJob;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The Volcano objects of the history's Volcano Jobs as watch events, for the collector's replay endpoint: the queue
 * they go to, each Job at every phase change (status.state with its lastTransitionTime, status.retryCount), and each
 * job's PodGroup — Pending, then Running once its first gang was scheduled, Completed once the job finished; a gang
 * the queue can never hold stays Pending with Volcano's Unschedulable condition. The jobs' pods are in the history.
 */
final class DemoVolcano {

    private static final String JOB_API = "batch.volcano.sh/v1alpha1";
    private static final String SCHEDULING_API = "scheduling.volcano.sh/v1beta1";

    private final Plan plan;
    private long resourceVersion = 5000;

    DemoVolcano(Plan plan) {
        this.plan = plan;
    }

    String ndjson() {
        List<String> lines = new ArrayList<>();
        Set<String> queues = new LinkedHashSet<>();
        plan.volcanoJobs().forEach(j -> queues.add(j.queue()));
        queues.forEach(q -> lines.add(event("ADDED", queue(q))));
        for (SimVolcanoJob job : plan.volcanoJobs()) {
            for (int i = 0; i < job.phases().size(); i++) {
                lines.add(event(i == 0 ? "ADDED" : "MODIFIED", job(job, job.phases().get(i))));
            }
            lines.addAll(podGroup(job));
        }
        return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
    }

    private ObjectNode queue(String name) {
        ObjectNode o = object(SCHEDULING_API, "Queue", name, null, "demo-vq-" + name, plan.start());
        ObjectNode spec = o.putObject("spec").put("weight", 1).put("reclaimable", true);
        spec.putObject("capability").put("nvidia.com/gpu", Integer.toString(SimVolcanoJob.QUEUE_GPUS));
        o.putObject("status").put("state", "Open");
        return o;
    }

    /** The job as its controller leaves it on entering {@code phase}. */
    private ObjectNode job(SimVolcanoJob job, SimVolcanoJob.Phase phase) {
        ObjectNode o = object(JOB_API, "Job", job.name(), job.namespace(), job.uid(), job.createdAt());
        ObjectNode spec = o.putObject("spec").put("schedulerName", "volcano").put("queue", job.queue())
                .put("minAvailable", job.workers()).put("maxRetry", job.maxRetry());
        spec.putArray("policies").addObject().put("event", "PodFailed").put("action", "RestartJob");
        ObjectNode task = spec.putArray("tasks").addObject().put("name", "worker").put("replicas", job.workers());
        ObjectNode podSpec = task.putObject("template").putObject("spec").put("restartPolicy", "Never");
        podSpec.putArray("containers").addObject().put("name", "trainer").put("image", job.image())
                .putObject("resources").putObject("limits").put("nvidia.com/gpu", Integer.toString(job.cardsPerWorker()));
        ObjectNode status = o.putObject("status");
        ObjectNode state = status.putObject("state").put("phase", phase.phase())
                .put("lastTransitionTime", Rfc3339.format(phase.at()));
        if (phase.reason() != null) {
            state.put("reason", phase.reason());
        }
        status.put("minAvailable", job.workers()).put("retryCount", phase.retryCount())
                .put("version", phase.retryCount());
        return o;
    }

    /** The job's PodGroup: Pending, Running at its first gang's start, Completed at the job's end. */
    private List<String> podGroup(SimVolcanoJob job) {
        List<String> lines = new ArrayList<>();
        lines.add(event("ADDED", podGroup(job, "Pending", null, null)));
        Instant running = job.runningAt();
        if (running == null) {
            lines.add(event("MODIFIED", podGroup(job, "Pending", "Unschedulable", job.createdAt().plusSeconds(1))));
            return lines;
        }
        lines.add(event("MODIFIED", podGroup(job, "Running", "Scheduled", running)));
        if (job.finished()) {
            lines.add(event("MODIFIED", podGroup(job, "Completed", "Scheduled", running)));
        }
        return lines;
    }

    private ObjectNode podGroup(SimVolcanoJob job, String phase, String condition, Instant at) {
        ObjectNode o = object(SCHEDULING_API, "PodGroup", job.podGroup(), job.namespace(), "demo-pg-" + job.uid(),
                job.createdAt());
        o.with("metadata").putArray("ownerReferences").addObject().put("apiVersion", JOB_API).put("kind", "Job")
                .put("name", job.name()).put("uid", job.uid()).put("controller", true).put("blockOwnerDeletion", true);
        int cards = job.workers() * job.cardsPerWorker();
        ObjectNode spec = o.putObject("spec").put("minMember", job.workers()).put("queue", job.queue());
        spec.putObject("minResources").put("nvidia.com/gpu", Integer.toString(cards));
        ObjectNode status = o.putObject("status").put("phase", phase);
        if (condition != null) {
            ObjectNode c = status.putArray("conditions").addObject().put("type", condition).put("status", "True")
                    .put("lastTransitionTime", Rfc3339.format(at));
            if (condition.equals("Unschedulable")) {
                c.put("reason", "NotEnoughResources").put("message", job.workers() + "/" + job.workers()
                        + " tasks in gang unschedulable: queue resource quota insufficient: the gang asks for " + cards
                        + " nvidia.com/gpu, the queue " + job.queue() + " has a capability of " + SimVolcanoJob.QUEUE_GPUS);
            } else {
                c.put("reason", "tasks in gang are ready to be scheduled");
                status.put("running", phase.equals("Running") ? job.workers() : 0);
            }
        }
        return o;
    }

    private ObjectNode object(String apiVersion, String kind, String name, String namespace, String uid, Instant created) {
        return WatchEvents.object(apiVersion, kind, name, namespace, uid, Long.toString(++resourceVersion), created);
    }

    private static String event(String type, ObjectNode object) {
        return WatchEvents.line(type, object);
    }
}
