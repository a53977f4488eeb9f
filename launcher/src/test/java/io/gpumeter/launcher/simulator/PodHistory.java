package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a watcher can tell about one pod from its events alone, the way the collector must: when it was bound,
 * when it gave its GPUs back, what it asked for and what HAMi allocated. Used to check the plan independently of
 * the simulator's own bookkeeping.
 */
record PodHistory(String uid, List<SimEvent> events, String node, Instant boundAt, Instant releasedAt,
                  Map<String, Long> gpuResources, List<String[]> hamiDevices) {

    /** The GPU pods' histories; the GPU stack's own pods ask for no GPU and are not among them. */
    static Map<String, PodHistory> of(Plan plan) {
        java.util.Set<String> gpuPods = new java.util.HashSet<>();
        plan.pods().forEach(p -> gpuPods.add(p.uid()));
        Map<String, List<SimEvent>> byUid = new LinkedHashMap<>();
        plan.eventsOfKind("Pod").filter(e -> gpuPods.contains(e.object().getMetadata().getUid()))
                .forEach(e -> byUid.computeIfAbsent(e.object().getMetadata().getUid(), u -> new ArrayList<>()).add(e));
        Map<String, PodHistory> out = new LinkedHashMap<>();
        byUid.forEach((uid, events) -> out.put(uid, of(uid, events)));
        return out;
    }

    private static PodHistory of(String uid, List<SimEvent> events) {
        String node = null;
        Instant bound = null;
        Instant released = null;
        List<String[]> devices = new ArrayList<>();
        for (SimEvent e : events) {
            Pod pod = (Pod) e.object();
            if (bound == null && pod.getSpec().getNodeName() != null) {
                node = pod.getSpec().getNodeName();
                bound = Instant.parse(pod.getStatus().getConditions().stream()
                        .filter(c -> c.getType().equals("PodScheduled")).findFirst().orElseThrow()
                        .getLastTransitionTime());
                String allocated = pod.getMetadata().getAnnotations() == null ? null
                        : pod.getMetadata().getAnnotations().get("hami.io/vgpu-devices-allocated");
                if (allocated != null) {
                    for (String container : allocated.split(";")) {
                        for (String device : container.split(":")) {
                            if (!device.isBlank()) {
                                devices.add(device.split(","));
                            }
                        }
                    }
                }
            }
            if (released == null && bound != null) {
                List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses();
                if (!statuses.isEmpty() && statuses.stream().allMatch(s -> s.getState().getTerminated() != null)) {
                    released = statuses.stream().map(s -> Instant.parse(s.getState().getTerminated().getFinishedAt()))
                            .max(Instant::compareTo).orElseThrow();
                } else if (e.type() == EventType.DELETED) {
                    released = Instant.parse(pod.getMetadata().getDeletionTimestamp());
                }
            }
        }
        Pod first = (Pod) events.get(0).object();
        Map<String, Long> resources = new LinkedHashMap<>();
        first.getSpec().getContainers().forEach(c -> c.getResources().getLimits().forEach((k, v) -> {
            if (k.startsWith("nvidia.com/")) {
                resources.merge(k, Quantity.getAmountInBytes(v).longValue(), Long::sum);
            }
        }));
        return new PodHistory(uid, events, node, bound, released, resources, devices);
    }

    boolean holdsAt(Instant at) {
        return boundAt != null && !boundAt.isAfter(at) && (releasedAt == null || releasedAt.isAfter(at));
    }
}
