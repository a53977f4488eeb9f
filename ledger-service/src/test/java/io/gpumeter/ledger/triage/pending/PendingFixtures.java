package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.AdmissionCheckState;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.NodeTaint;
import io.gpumeter.common.fact.NotScheduled;
import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodPlacement;
import io.gpumeter.common.fact.PodSetRequest;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.PodToleration;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.QueueObjectKind;
import io.gpumeter.common.fact.QuotaLine;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.ledger.governance.domain.PodGroupTrail;
import io.gpumeter.ledger.governance.domain.PodTrail;
import io.gpumeter.ledger.governance.domain.WorkloadTrail;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The facts of the pending fixtures: a cluster of GPU nodes at {@link #AT}, and pods, Workloads and PodGroups that
 * wait there, each made into what the tree reads through the same trails the ledger derives its books with.
 */
final class PendingFixtures {

    static final Instant AT = Instant.parse("2026-05-04T12:00:00Z");
    static final Instant CREATED = Instant.parse("2026-05-04T06:00:00Z");
    static final Instant STATUS_AT = Instant.parse("2026-05-04T11:58:00Z");
    /** What the default scheduler says of a pod it cannot place for want of GPUs, whatever the reason for the want. */
    static final String INSUFFICIENT = "0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are"
            + " available: 4 No preemption victims found for incoming pod.";
    static final NodeTaint GPU_TAINT = new NodeTaint("nvidia.com/gpu", null, "NoSchedule");
    static final PodToleration GPU_TOLERATION = new PodToleration("nvidia.com/gpu", "Exists", null, "NoSchedule");
    static final Map<String, Long> TWO_GPUS = Map.of("nvidia.com/gpu", 2L);

    private PendingFixtures() {
    }

    static DevicePlugin ready(String node) {
        return new DevicePlugin(DevicePlugin.State.READY, "device-plugin", "gpu-operator",
                "nvidia-device-plugin-daemonset-" + node, null, 0, STATUS_AT);
    }

    static DevicePlugin crashLooping(String node) {
        return new DevicePlugin(DevicePlugin.State.NOT_READY, "device-plugin", "gpu-operator",
                "nvidia-device-plugin-daemonset-" + node, "CrashLoopBackOff", 7, STATUS_AT);
    }

    /** A node of pool {@code pool} with eight GPUs, offering {@code allocatable}, {@code held} of them held. */
    static NodeAt node(String name, String pool, long allocatable, long held, DevicePlugin plugin, NodeTaint... taints) {
        return node(name, pool, Map.of("nvidia.com/gpu", 8L), Map.of("nvidia.com/gpu", allocatable),
                Map.of("nvidia.com/gpu", held), plugin, false, taints);
    }

    static NodeAt node(String name, String pool, Map<String, Long> capacity, Map<String, Long> allocatable,
                       Map<String, Long> held, DevicePlugin plugin, boolean cordoned, NodeTaint... taints) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/hostname", name);
        labels.put("gpu-pool", pool);
        labels.put("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB");
        return new NodeAt(name, labels, true, STATUS_AT, capacity, allocatable, cordoned, Arrays.asList(taints), plugin, held);
    }

    static Fleet fleet(NodeAt... nodes) {
        return new Fleet("demo", AT, List.of(nodes));
    }

    /** Selects pool {@code pool}, tolerates the GPU taint. */
    static PodPlacement pool(String pool) {
        return new PodPlacement(Map.of("gpu-pool", pool), List.of(), List.of(GPU_TOLERATION));
    }

    /** A pending pod's view: the scheduler's refusal kept as its PodScheduled=False condition, when given. */
    static PodStatusFact view(String name, String scheduler, Map<String, Long> asks, PodPlacement placement,
                              String refusal) {
        return new PodStatusFact("uid-" + name, "team-a", name, "7", WatchEventType.MODIFIED, AT, CREATED, null, null, null,
                scheduler, "Pending", null, null, new Owner("Job", name), null, null, asks, null, List.of(),
                refusal == null ? null : new NotScheduled("Unschedulable", refusal, CREATED.plusSeconds(1)), placement);
    }

    static PodStatusFact refusedByKubelet(String name, String reason, String message) {
        return new PodStatusFact("uid-" + name, "team-a", name, "9", WatchEventType.MODIFIED, AT, CREATED,
                CREATED.plusSeconds(2), null, "gpu-a1", "default-scheduler", "Failed", reason, message, new Owner("Job", name),
                null, null, TWO_GPUS, null, List.of(), null, pool("a100"));
    }

    static EventFact failedScheduling(String pod, String message) {
        return new EventFact("ev-" + pod, "team-a", pod + ".1", "1", AT, "Pod", "team-a", pod, "uid-" + pod,
                "FailedScheduling", "Warning", message, "default-scheduler", null, CREATED.plusSeconds(1),
                AT.minusSeconds(60), 40);
    }

    /** What the tree reads of a pod, through the pod's trail as the ledger derives it. */
    static Waiting pending(PodStatusFact view, EventFact... events) {
        PodTrail trail = new PodTrail(List.of(view), List.of(events));
        return Waitings.ofPod(trail.state(), trail.latest(), trail.refusedAt());
    }

    static ObjectCondition condition(String type, String status, String reason, String message) {
        return new ObjectCondition(type, status, reason, message, CREATED.plusSeconds(5));
    }

    static WorkloadFact workload(String name, Boolean active, List<ObjectCondition> conditions,
                                 List<AdmissionCheckState> checks) {
        return new WorkloadFact("uid-" + name, "team-a", name, "3", WatchEventType.MODIFIED, AT, "kueue.x-k8s.io/v1beta1",
                CREATED, null, "lq-a", 0, null, active, new Owner("Job", name),
                List.of(new PodSetRequest("main", 2, Map.of("nvidia.com/gpu", BigDecimal.valueOf(4), "cpu", BigDecimal.TEN),
                        null)), null, List.of(), conditions, checks, null);
    }

    /** ClusterQueue cq-a: eight GPUs of flavor a100, {@code reserved} of them reserved. */
    static QueueObjectFact clusterQueue(long reserved, ObjectCondition... conditions) {
        return new QueueObjectFact(QueueObjectKind.CLUSTER_QUEUE, "", "cq-a", "cq-uid", "5", WatchEventType.MODIFIED,
                STATUS_AT, "kueue.x-k8s.io/v1beta1", null, null, Map.of(), null, 3, 2,
                List.of(new QuotaLine("a100", "nvidia.com/gpu", BigDecimal.valueOf(8), null, null, null,
                        BigDecimal.valueOf(reserved), BigDecimal.valueOf(reserved), BigDecimal.ZERO)), List.of(conditions));
    }

    static KueueQueue.Position position(int inClusterQueue) {
        return new KueueQueue.Position(inClusterQueue, inClusterQueue, 0, AT.minusSeconds(30));
    }

    /** What the tree reads of a Workload, through its trail, with its ClusterQueue and place. */
    static Waiting pending(WorkloadFact workload, QueueObjectFact clusterQueue, KueueQueue.Position position,
                           EventFact... events) {
        WorkloadTrail trail = new WorkloadTrail(List.of(workload), List.of(events));
        var state = trail.state();
        return Waitings.ofWorkload(state, workload, new KueueQueue(clusterQueue, position, Waitings.total(workload)));
    }

    static Waiting pendingGroup(String message) {
        PodGroupFact group = new PodGroupFact("uid-pg", "team-a", "ray-pg", "4", WatchEventType.MODIFIED, AT, CREATED, null,
                "research", 4, null, "Pending", 0, 0, 0, null,
                message == null ? List.of() : List.of(condition("Unschedulable", "True", "NotEnoughResources", message)));
        PodGroupTrail trail = new PodGroupTrail(List.of(group), List.of());
        return Waitings.ofPodGroup(trail.state(), group);
    }
}
