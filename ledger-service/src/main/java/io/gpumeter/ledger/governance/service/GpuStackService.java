package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.NodeTaint;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.StackWorkloadFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.ledger.governance.domain.GpuLabels;
import io.gpumeter.ledger.governance.domain.ImageVersion;
import io.gpumeter.ledger.governance.domain.MigConsistency;
import io.gpumeter.ledger.governance.domain.SeenDriver;
import io.gpumeter.ledger.governance.repository.StackFactRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One node's GPU stack at an instant, from the versions stored up to it: what it offers per GPU resource, whether it
 * takes pods, its GPU labels, each GPU-stack component's workloads (cluster-wide) and its pod on the node, and the
 * driver versions the data paths saw on its cards.
 */
@ApplicationScoped
public class GpuStackService {

    /** A GPU resource: its capacity and allocatable. */
    public record Resource(String resource, Long capacity, Long allocatable) {
    }

    /** What GPU feature discovery and the MIG manager label, read out, and every label of NVIDIA's domain. */
    public record Labels(String driverVersion, String cudaVersion, String product, String count, String migConfig,
                         String migConfigState, Map<String, String> all) {
    }

    /** A DaemonSet or Deployment of a component and the version its images name. */
    public record Workload(String kind, String namespace, String name, List<String> images, String version) {
    }

    /**
     * The component's pod on the node: {@code state} Ready, Restarting (not ready, restarted before), CrashLoopBackOff,
     * NotReady or Absent (no pod of it on the node; the other fields null).
     */
    public record Pod(String state, String namespace, String name, Boolean ready, Integer restarts, String waitingReason,
                      List<String> images, String version, Instant observedAt) {
    }

    public record Component(String component, List<Workload> workloads, Pod pod) {
    }

    /** A version a data path saw on a card: when first and last. */
    public record DriverSeen(String source, String gpuUuid, String version, Instant firstSeen, Instant lastSeen) {
    }

    /**
     * @param present   whether the node exists at the instant (not deleted, seen before)
     * @param statusAt  when the status version read was observed; null where only labels are stored (older history)
     * @param mig       the layout {@code nvidia.com/mig.config} names (or that the ledger does not know it), what it
     *                  expects, what the allocatable resources and dcgm-exporter's instances show, and whether they agree
     */
    public record GpuStack(String cluster, String node, Instant at, boolean present, Instant statusAt,
                           List<Resource> resources, Boolean cordoned, List<NodeTaint> taints, Labels gpuLabels,
                           List<Component> components, List<DriverSeen> driverVersions, MigConsistency.View mig) {

        GpuStack withMig(MigConsistency.View view) {
            return new GpuStack(cluster, node, at, present, statusAt, resources, cordoned, taints, gpuLabels, components,
                    driverVersions, view);
        }
    }

    private final Pool pool;
    private final StackFactRepository stack;
    private final MigBooks mig;

    public GpuStackService(Pool pool, StackFactRepository stack, MigBooks mig) {
        this.pool = pool;
        this.stack = stack;
        this.mig = mig;
    }

    public Uni<GpuStack> at(String cluster, String node, Instant at) {
        return stack.statusAt(pool, cluster, node, at)
                .chain(status -> stack.nodeAt(pool, cluster, node, at)
                        .chain(labels -> {
                            if (status == null && labels == null) {
                                throw ApiProblem.notFound("node", "node " + node + " of cluster " + cluster
                                        + " has no version at or before " + at);
                            }
                            return stack.workloadsAt(pool, cluster, at)
                                    .chain(workloads -> stack.podsOnAt(pool, cluster, node, at)
                                            .chain(pods -> stack.sightings(pool, cluster, List.of(node), at)
                                                    .map(seen -> view(cluster, node, at, status, labels, workloads,
                                                            pods, seen))))
                                    .chain(view -> mig.at(pool, cluster, node, at).map(view::withMig));
                        }));
    }

    private static GpuStack view(String cluster, String node, Instant at, NodeStatusFact status, NodeFact labels,
                                 List<StackWorkloadFact> workloads, List<StackPodFact> pods, List<SeenDriver> seen) {
        boolean present = (status == null || status.type() != WatchEventType.DELETED)
                && (labels == null || labels.type() != WatchEventType.DELETED);
        Map<String, String> gpuLabels = status != null ? new TreeMap<>(status.gpuLabels()) : new TreeMap<>();
        if (status == null) {
            labels.labels().forEach((k, v) -> {
                if (k.startsWith(GpuLabels.DOMAIN)) {
                    gpuLabels.put(k, v);
                }
            });
        }
        List<Resource> resources = new ArrayList<>();
        if (status != null) {
            Set<String> names = new TreeSet<>(status.capacity().keySet());
            names.addAll(status.allocatable().keySet());
            names.forEach(r -> resources.add(new Resource(r, status.capacity().get(r), status.allocatable().get(r))));
        }
        return new GpuStack(cluster, node, at, present, status == null ? null : status.observedAt(), resources,
                status == null ? null : status.unschedulable(), status == null ? List.of() : status.taints(),
                new Labels(GpuLabels.driverVersion(gpuLabels), GpuLabels.cudaVersion(gpuLabels),
                        gpuLabels.get(GpuLabels.PRODUCT), gpuLabels.get(GpuLabels.COUNT), gpuLabels.get(GpuLabels.MIG_CONFIG),
                        gpuLabels.get(GpuLabels.MIG_CONFIG_STATE), gpuLabels),
                components(workloads, pods), drivers(seen), null);
    }

    private static List<Component> components(List<StackWorkloadFact> workloads, List<StackPodFact> pods) {
        Map<String, List<Workload>> byComponent = new TreeMap<>();
        for (StackWorkloadFact w : workloads) {
            if (w.type() != WatchEventType.DELETED) {
                byComponent.computeIfAbsent(w.component(), c -> new ArrayList<>()).add(new Workload(w.kind(), w.namespace(),
                        w.name(), w.images(), ImageVersion.versions(w.images())));
            }
        }
        // pods come oldest first: the last live one of a component is the one the node runs now, a ready one first.
        Map<String, StackPodFact> podOf = new LinkedHashMap<>();
        for (StackPodFact p : pods) {
            boolean live = p.type() != WatchEventType.DELETED && !"Succeeded".equals(p.phase()) && !"Failed".equals(p.phase());
            StackPodFact held = podOf.get(p.component());
            if (live && (held == null || p.ready() || !held.ready())) {
                podOf.put(p.component(), p);
            }
            byComponent.computeIfAbsent(p.component(), c -> new ArrayList<>());
        }
        List<Component> out = new ArrayList<>();
        byComponent.forEach((component, ws) -> out.add(new Component(component, ws, pod(podOf.get(component)))));
        return out;
    }

    private static Pod pod(StackPodFact p) {
        if (p == null) {
            return new Pod("Absent", null, null, null, null, null, null, null, null);
        }
        String state = p.ready() ? "Ready" : "CrashLoopBackOff".equals(p.waitingReason()) ? "CrashLoopBackOff"
                : p.restarts() > 0 ? "Restarting" : "NotReady";
        return new Pod(state, p.namespace(), p.name(), p.ready(), p.restarts(), p.waitingReason(), p.images(),
                ImageVersion.versions(p.images()), p.observedAt());
    }

    /** Per data path and card, the version first seen last by the instant. */
    private static List<DriverSeen> drivers(List<SeenDriver> seen) {
        Map<String, SeenDriver> latest = new TreeMap<>();
        for (SeenDriver s : seen) {
            latest.merge(s.source() + "|" + s.gpuUuid(), s, (a, b) -> b.firstSeen().isAfter(a.firstSeen()) ? b : a);
        }
        return latest.values().stream()
                .map(s -> new DriverSeen(s.source(), s.gpuUuid(), s.version(), s.firstSeen(), s.lastSeen())).toList();
    }
}
