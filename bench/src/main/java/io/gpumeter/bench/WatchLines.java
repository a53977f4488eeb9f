package io.gpumeter.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.VgpuGrant;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Renders a month's facts as the watch events an API server streams, the collector's replay format: a namespace
 * and a node once each; a pod as ADDED (Pending, unscheduled), MODIFIED (bound and Running) and, when it ends,
 * MODIFIED (Succeeded) and DELETED. The objects carry the fields a real pod carries (containers, conditions,
 * container statuses, owner references, HAMi's annotations), so the collector reads as much as it would in a cluster.
 */
final class WatchLines {

    private final ObjectMapper json = new ObjectMapper();
    private long revision = 1;

    /** Every event of {@code batch}, one JSON line each, in the order a watcher would see a pod's changes. */
    void render(FactBatch batch, Consumer<String> out) {
        batch.namespaces().forEach(ns -> out.accept(event("ADDED", namespace(ns))));
        batch.nodes().forEach(node -> out.accept(event("ADDED", node(node))));
        for (PodFact pod : batch.pods()) {
            if (pod.allTerminated()) {
                out.accept(event("MODIFIED", pod(pod, Stage.FINISHED)));
                out.accept(event("DELETED", pod(pod, Stage.DELETED)));
            } else {
                out.accept(event("ADDED", pod(pod, Stage.PENDING)));
                out.accept(event("MODIFIED", pod(pod, Stage.RUNNING)));
            }
        }
    }

    private enum Stage { PENDING, RUNNING, FINISHED, DELETED }

    private String event(String type, ObjectNode object) {
        ObjectNode event = json.createObjectNode();
        event.put("type", type);
        event.set("object", object);
        return event.toString();
    }

    private ObjectNode namespace(NamespaceFact ns) {
        ObjectNode o = object("Namespace");
        ObjectNode meta = meta(o, ns.name(), null, ns.uid(), ns.observedAt());
        labels(meta, ns.labels()).put("kubernetes.io/metadata.name", ns.name());
        o.putObject("spec").putArray("finalizers").add("kubernetes");
        o.putObject("status").put("phase", "Active");
        return o;
    }

    private ObjectNode node(NodeFact node) {
        ObjectNode o = object("Node");
        ObjectNode meta = meta(o, node.name(), null, node.uid(), node.observedAt());
        labels(meta, node.labels()).put("kubernetes.io/hostname", node.name()).put("kubernetes.io/os", "linux");
        if (!node.gpus().isEmpty()) {
            ArrayNode devices = json.createArrayNode();
            int index = 0;
            for (RegisteredGpu gpu : node.gpus()) {
                devices.addObject().put("id", gpu.uuid()).put("index", index++).put("count", gpu.splitCount())
                        .put("devmem", gpu.memoryMib()).put("devcore", gpu.cores()).put("type", gpu.model())
                        .put("numa", index <= 4 ? 0 : 1).put("mode", "hami-core").put("health", true);
            }
            meta.putObject("annotations").put("hami.io/node-nvidia-register", devices.toString());
        }
        ObjectNode status = o.putObject("status");
        ObjectNode capacity = status.putObject("capacity").put("cpu", "96").put("memory", "1056457116Ki").put("pods", "110");
        capacity.put("nvidia.com/gpu", node.gpus().isEmpty() ? "8" : "80");
        status.set("allocatable", capacity.deepCopy());
        status.putArray("conditions").addObject().put("type", "Ready").put("status", "True").put("reason", "KubeletReady")
                .put("lastTransitionTime", node.observedAt().toString());
        return o;
    }

    private ObjectNode pod(PodFact pod, Stage stage) {
        ObjectNode o = object("Pod");
        ObjectNode meta = meta(o, pod.name(), pod.namespace(), pod.uid(), pod.createdAt());
        labels(meta, pod.labels()).put("job-name", pod.owner().name()).put("batch.kubernetes.io/job-name", pod.owner().name());
        meta.putArray("ownerReferences").addObject().put("apiVersion", "batch/v1").put("kind", pod.owner().kind())
                .put("name", pod.owner().name()).put("uid", "uid-" + pod.owner().name()).put("controller", true)
                .put("blockOwnerDeletion", true);
        boolean bound = stage != Stage.PENDING;
        if (stage == Stage.DELETED) {
            meta.put("deletionTimestamp", pod.lastFinishedAt().toString()).put("deletionGracePeriodSeconds", 0);
        }
        if (bound && !pod.vgpus().isEmpty()) {
            StringBuilder devices = new StringBuilder();
            for (VgpuGrant g : pod.vgpus()) {
                devices.append(g.uuid()).append(',').append(g.type()).append(',').append(g.memoryMib()).append(',')
                        .append(g.cores()).append(':');
            }
            // HAMi's binding as the fact has it: the ledger books a grant only once bind-phase says success
            ObjectNode annotations = meta.putObject("annotations")
                    .put("hami.io/vgpu-devices-allocated", devices.append(';').toString());
            if (pod.hamiBindPhase() != null) {
                annotations.put("hami.io/bind-phase", pod.hamiBindPhase());
            }
            if (pod.hamiNode() != null) {
                annotations.put("hami.io/vgpu-node", pod.hamiNode());
            }
        }
        ObjectNode spec = o.putObject("spec");
        ObjectNode container = spec.putArray("containers").addObject().put("name", "main")
                .put("image", "registry.example.com/ml/train:2026.11").put("imagePullPolicy", "IfNotPresent");
        container.putArray("command").add("python").add("-m").add("train");
        ObjectNode resources = container.putObject("resources");
        ObjectNode limits = resources.putObject("limits").put("cpu", "8").put("memory", "64Gi");
        ObjectNode requests = resources.putObject("requests").put("cpu", "4").put("memory", "32Gi");
        pod.gpuResources().forEach((name, amount) -> {
            limits.put(name, Long.toString(amount));
            requests.put(name, Long.toString(amount));
        });
        spec.put("restartPolicy", "Never").put("schedulerName", pod.schedulerName()).put("serviceAccountName", "default")
                .put("terminationGracePeriodSeconds", 30);
        spec.putArray("tolerations").addObject().put("key", "nvidia.com/gpu").put("operator", "Exists").put("effect", "NoSchedule");
        if (bound) {
            spec.put("nodeName", pod.nodeName());
        }
        ObjectNode status = o.putObject("status").put("qosClass", "Burstable");
        status.put("phase", switch (stage) {
            case PENDING -> "Pending";
            case RUNNING -> "Running";
            case FINISHED, DELETED -> pod.phase();
        });
        if (bound) {
            Instant scheduled = pod.scheduledAt();
            status.put("hostIP", "10.0.0.1").put("podIP", "10.244.0.2").put("startTime", scheduled.toString());
            ArrayNode conditions = status.putArray("conditions");
            conditions.addObject().put("type", "Initialized").put("status", "True").put("lastTransitionTime", scheduled.toString());
            conditions.addObject().put("type", "Ready").put("status", stage == Stage.RUNNING ? "True" : "False")
                    .put("lastTransitionTime", scheduled.toString());
            conditions.addObject().put("type", "PodScheduled").put("status", "True").put("lastTransitionTime", scheduled.toString());
            ObjectNode containerStatus = status.putArray("containerStatuses").addObject().put("name", "main")
                    .put("image", "registry.example.com/ml/train:2026.11").put("ready", stage == Stage.RUNNING)
                    .put("restartCount", 0).put("containerID", "containerd://" + pod.uid());
            ObjectNode state = containerStatus.putObject("state");
            if (stage == Stage.RUNNING) {
                state.putObject("running").put("startedAt", scheduled.toString());
            } else {
                state.putObject("terminated").put("exitCode", 0).put("reason", "Completed")
                        .put("startedAt", scheduled.toString()).put("finishedAt", pod.lastFinishedAt().toString());
            }
        }
        return o;
    }

    private ObjectNode object(String kind) {
        ObjectNode o = json.createObjectNode();
        o.put("apiVersion", "v1").put("kind", kind);
        return o;
    }

    private ObjectNode meta(ObjectNode o, String name, String namespace, String uid, Instant created) {
        ObjectNode meta = o.putObject("metadata").put("name", name);
        if (namespace != null) {
            meta.put("namespace", namespace);
        }
        return meta.put("uid", uid).put("resourceVersion", Long.toString(revision++))
                .put("creationTimestamp", created.toString());
    }

    private static ObjectNode labels(ObjectNode meta, Map<String, String> labels) {
        ObjectNode node = meta.putObject("labels");
        labels.forEach(node::put);
        return node;
    }

    /** Renders a fleet's month as NDJSON request files of {@code lines} events each, in a fresh directory; answers them in order. */
    static List<Path> writeRequests(Path dir, FleetMonth fleet, int lines) throws IOException {
        if (Files.isDirectory(dir)) {
            try (var old = Files.list(dir)) {
                for (Path p : old.toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(dir);
        WatchLines watch = new WatchLines();
        List<Path> files = new ArrayList<>();
        long[] written = {0, 0};
        OutputStream[] out = {null};
        fleet.emit("replay", 20_000, batch -> watch.render(batch, line -> {
            try {
                if (out[0] == null || written[0] % lines == 0) {
                    if (out[0] != null) {
                        out[0].close();
                    }
                    Path file = dir.resolve(String.format("request-%03d.ndjson", files.size() + 1));
                    files.add(file);
                    out[0] = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20);
                }
                byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
                out[0].write(bytes);
                written[0]++;
                written[1] += bytes.length;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }));
        if (out[0] != null) {
            out[0].close();
        }
        System.out.printf("watch stream: %,d events of %,d pods, %,d MiB of NDJSON in %d requests%n", written[0],
                fleet.pods(), written[1] >> 20, files.size());
        return files;
    }
}
