package io.gpumeter.launcher.demo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.launcher.simulator.Rfc3339;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Kueue's and Volcano's queue objects as watch events, for the collector's replay endpoint: a ResourceFlavor, two
 * ClusterQueues and three LocalQueues; 36 Workloads over the last day and a half, each refused for want of unused quota
 * and admitted after its wait (mostly short, a few long); one Workload asking for more than its ClusterQueue's whole
 * quota, held back and still waiting; and a Volcano queue whose twelve gangs waited for their members.
 */
final class DemoQueues {

    private static final String KUEUE_API = "kueue.x-k8s.io/v1beta1";
    private static final String VOLCANO_API = "scheduling.volcano.sh/v1beta1";
    private static final String GPU = "nvidia.com/gpu";
    private static final String FLAVOR = "a100-80g";
    private static final String GANG_NAMESPACE = "umbrella-research";

    private final long seed;
    private final Instant start;
    private final Instant end;
    /** Versions of the objects that change, counted on from one call to the next as an API server's would be. */
    private int resourceVersion = 100;

    DemoQueues(long seed, Instant start, Instant end) {
        this.seed = seed;
        this.start = start;
        this.end = end;
    }

    String ndjson() {
        List<String> lines = new ArrayList<>();
        ObjectNode flavor = WatchEvents.object(KUEUE_API, "ResourceFlavor", FLAVOR, null, "demo-rf-a100", "1", start);
        flavor.putObject("spec").putObject("nodeLabels").put("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB");
        lines.add(WatchEvents.line("ADDED", flavor));
        lines.add(WatchEvents.line("ADDED", clusterQueue("cq-training", 8)));
        lines.add(WatchEvents.line("ADDED", clusterQueue("cq-batch", 4)));
        lines.add(WatchEvents.line("ADDED", localQueue("acme-training", "training", "cq-training")));
        lines.add(WatchEvents.line("ADDED", localQueue("umbrella-research", "training", "cq-training")));
        lines.add(WatchEvents.line("ADDED", localQueue("initech-batch", "batch", "cq-batch")));
        SplittableRandom random = new SplittableRandom(seed * 7919);
        String[][] queues = {{"acme-training", "training", "cq-training"}, {"umbrella-research", "training", "cq-training"},
                {"initech-batch", "batch", "cq-batch"}};
        Instant first = end.minus(Duration.ofHours(36));
        for (int i = 0; i < 36; i++) {
            String[] q = queues[i % queues.length];
            Instant created = first.plus(Duration.ofMinutes(55L * i + random.nextInt(0, 20)));
            long wait = waitSeconds(random, i);
            lines.addAll(workload(q[0], q[1], q[2], "train-" + i, created, wait, 1 + i % 4));
        }
        // more than the ClusterQueue's whole quota: Kueue holds it back, and it is still waiting
        Instant held = end.minus(Duration.ofMinutes(40));
        ObjectNode asked = workloadObject("acme-training", "training", "train-xl", held, 16);
        waiting(asked);
        lines.add(WatchEvents.line("ADDED", asked));
        ObjectNode refused = workloadObject("acme-training", "training", "train-xl", held, 16);
        condition(waiting(refused), "QuotaReserved", "False", "Pending", "couldn't assign flavors to pod set main: "
                + "insufficient quota for nvidia.com/gpu in flavor a100-80g, request > maximum capacity (16 > 8)",
                held.plusSeconds(1));
        lines.add(WatchEvents.line("MODIFIED", refused));
        // Volcano: one queue, gangs that waited for their members
        ObjectNode queue = WatchEvents.object(VOLCANO_API, "Queue", "research", null, "demo-vq-research", "1", start);
        queue.putObject("spec").put("weight", 1).put("reclaimable", true).putObject("capability").put(GPU, "8");
        queue.putObject("status").put("state", "Open");
        lines.add(WatchEvents.line("ADDED", queue));
        for (int i = 0; i < 12; i++) {
            Instant created = first.plus(Duration.ofMinutes(170L * i + random.nextInt(0, 30)));
            long wait = waitSeconds(random, i + 100);
            lines.add(WatchEvents.line("ADDED", podGroup("gang-" + i, created, "Pending", null)));
            lines.add(WatchEvents.line("MODIFIED", podGroup("gang-" + i, created, "Running", created.plusSeconds(wait))));
        }
        return String.join("\n", lines) + "\n";
    }

    /** Mostly short waits, a few long ones: what makes p95 stand away from p50. */
    private static long waitSeconds(SplittableRandom random, int i) {
        return i % 9 == 4 ? random.nextLong(1800, 5400) : random.nextLong(5, 600);
    }

    private ObjectNode clusterQueue(String name, int gpus) {
        ObjectNode o = WatchEvents.object(KUEUE_API, "ClusterQueue", name, null, "demo-" + name, "1", start);
        ObjectNode spec = o.putObject("spec").put("cohort", "gpu");
        spec.putObject("namespaceSelector");
        ObjectNode group = spec.putArray("resourceGroups").addObject();
        group.putArray("coveredResources").add(GPU);
        group.putArray("flavors").addObject().put("name", FLAVOR).putArray("resources").addObject().put("name", GPU)
                .put("nominalQuota", gpus);
        return o;
    }

    private ObjectNode localQueue(String namespace, String name, String clusterQueue) {
        ObjectNode o = WatchEvents.object(KUEUE_API, "LocalQueue", name, namespace, "demo-lq-" + namespace + "-" + name,
                "1", start);
        o.putObject("spec").put("clusterQueue", clusterQueue);
        return o;
    }

    /** A Workload as it is created, refused for want of unused quota, then admitted {@code wait} seconds later. */
    private List<String> workload(String namespace, String queue, String clusterQueue, String name, Instant created,
                                  long wait, int gpus) {
        ObjectNode asked = workloadObject(namespace, queue, name, created, gpus);
        waiting(asked);
        String added = WatchEvents.line("ADDED", asked);
        ObjectNode refused = workloadObject(namespace, queue, name, created, gpus);
        condition(waiting(refused), "QuotaReserved", "False", "Pending", "couldn't assign flavors to pod set main: "
                + "insufficient unused quota for nvidia.com/gpu in flavor a100-80g, " + gpus + " more needed",
                created.plusSeconds(1));
        String refusedLine = WatchEvents.line("MODIFIED", refused);
        Instant admitted = created.plusSeconds(wait);
        ObjectNode admittedObject = workloadObject(namespace, queue, name, created, gpus);
        ObjectNode status = admittedObject.putObject("status");
        ObjectNode assignment = status.putObject("admission").put("clusterQueue", clusterQueue)
                .putArray("podSetAssignments").addObject().put("name", "main").put("count", 1);
        assignment.putObject("flavors").put(GPU, FLAVOR);
        assignment.putObject("resourceUsage").put(GPU, Integer.toString(gpus));
        ArrayNode conditions = status.putArray("conditions");
        condition(conditions, "QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue " + clusterQueue,
                admitted);
        condition(conditions, "Admitted", "True", "Admitted", "The workload is admitted", admitted);
        return List.of(added, refusedLine, WatchEvents.line("MODIFIED", admittedObject));
    }

    /** A Workload of one pod set asking for {@code gpus} cards, without its status. */
    private ObjectNode workloadObject(String namespace, String queue, String name, Instant created, int gpus) {
        ObjectNode o = WatchEvents.object(KUEUE_API, "Workload", "job-" + name, namespace,
                "demo-wl-" + namespace + "-" + name, Integer.toString(++resourceVersion), created);
        ObjectNode podSet = o.putObject("spec").put("queueName", queue).putArray("podSets").addObject()
                .put("name", "main").put("count", 1);
        podSet.putObject("template").putObject("spec").putArray("containers").addObject().put("name", "trainer")
                .putObject("resources").putObject("requests").put(GPU, Integer.toString(gpus));
        return o;
    }

    /** The status of a Workload not admitted: its conditions, none yet. */
    private static ArrayNode waiting(ObjectNode workload) {
        return workload.putObject("status").putArray("conditions");
    }

    private static void condition(ArrayNode conditions, String type, String status, String reason, String message,
                                  Instant at) {
        conditions.addObject().put("type", type).put("status", status).put("reason", reason).put("message", message)
                .put("lastTransitionTime", Rfc3339.format(at));
    }

    private ObjectNode podGroup(String name, Instant created, String phase, Instant scheduled) {
        ObjectNode o = WatchEvents.object(VOLCANO_API, "PodGroup", name, GANG_NAMESPACE, "demo-pg-" + name,
                Integer.toString(++resourceVersion), created);
        o.putObject("spec").put("queue", "research").put("minMember", 4);
        ObjectNode status = o.putObject("status");
        if (scheduled != null) {
            status.putArray("conditions").addObject().put("type", "Scheduled").put("status", "True")
                    .put("reason", "tasks in gang are ready to be scheduled")
                    .put("lastTransitionTime", Rfc3339.format(scheduled));
        }
        status.put("phase", phase);
        if (scheduled != null) {
            status.put("running", 4);
        }
        return o;
    }
}
