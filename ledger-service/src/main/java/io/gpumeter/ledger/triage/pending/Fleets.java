package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.ledger.allocation.domain.UnitKind;
import io.gpumeter.ledger.fragmentation.domain.HeldUnit;
import io.gpumeter.ledger.inventory.domain.MigProfile;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Puts one cluster's nodes together as they stood at an instant, from the newest version of each fact by then: a
 * node's labels (its node version), what it offers and whether it takes pods (its status), its device plugin (the
 * GPU stack's pods) and the units held on it (the allocation books).
 */
public final class Fleets {

    private Fleets() {
    }

    /**
     * @param statuses          the newest status version of each node by the instant (deletions included)
     * @param nodes             the newest node version of each node by the instant (deletions included)
     * @param stackPods         the newest version of each GPU-stack pod by the instant (deletions included)
     * @param pluginComponents  the components that are device plugins (the GPU Operator's, HAMi's)
     * @param held              the units held at the instant
     */
    public static Fleet of(String cluster, Instant at, Collection<NodeStatusFact> statuses, Collection<NodeFact> nodes,
                           Collection<StackPodFact> stackPods, Set<String> pluginComponents, Collection<HeldUnit> held) {
        Map<String, NodeStatusFact> statusOf = new HashMap<>();
        statuses.forEach(s -> statusOf.put(s.name(), s));
        Map<String, NodeFact> nodeOf = new HashMap<>();
        nodes.forEach(n -> nodeOf.put(n.name(), n));
        Set<String> names = new TreeSet<>(statusOf.keySet());
        names.addAll(nodeOf.keySet());

        Map<String, StackPodFact> pluginOf = new HashMap<>();
        String seenComponent = null;
        String seenNamespace = null;
        for (StackPodFact p : stackPods) {
            if (p.component() == null || !pluginComponents.contains(p.component()) || p.type() == WatchEventType.DELETED || p.node() == null
                    || "Succeeded".equals(p.phase()) || "Failed".equals(p.phase())) {
                continue;
            }
            seenComponent = seenComponent == null ? p.component() : seenComponent;
            seenNamespace = seenNamespace == null ? p.namespace() : seenNamespace;
            StackPodFact kept = pluginOf.get(p.node());
            if (kept == null || p.ready() && !kept.ready()) {
                pluginOf.put(p.node(), p);
            }
        }
        boolean pluginsKnown = seenComponent != null;

        Map<String, List<HeldUnit>> heldOn = new HashMap<>();
        held.forEach(u -> {
            if (u.node() != null) {
                heldOn.computeIfAbsent(u.node(), k -> new ArrayList<>()).add(u);
            }
        });

        List<NodeAt> out = new ArrayList<>();
        for (String name : names) {
            NodeStatusFact status = statusOf.get(name);
            NodeFact node = nodeOf.get(name);
            if (status != null && status.type() == WatchEventType.DELETED || node != null && node.type() == WatchEventType.DELETED) {
                continue;
            }
            Map<String, String> labels = new TreeMap<>();
            if (node != null) {
                labels.putAll(node.labels());
            }
            if (status != null) {
                labels.putAll(status.gpuLabels());
            }
            StackPodFact pod = pluginOf.get(name);
            DevicePlugin plugin = !pluginsKnown ? DevicePlugin.UNKNOWN
                    : pod == null ? DevicePlugin.absent(seenComponent, seenNamespace)
                    : new DevicePlugin(pod.ready() ? DevicePlugin.State.READY : DevicePlugin.State.NOT_READY, pod.component(),
                    pod.namespace(), pod.name(), pod.waitingReason(), pod.restarts(), pod.observedAt());
            Map<String, Long> capacity = status == null ? Map.of() : status.capacity();
            out.add(new NodeAt(name, labels, node != null, status == null ? null : status.observedAt(), capacity,
                    status == null ? Map.of() : status.allocatable(), status != null && status.unschedulable(),
                    status == null ? List.of() : status.taints(), plugin,
                    heldPerResource(heldOn.getOrDefault(name, List.of()), capacity)));
        }
        return new Fleet(cluster, at, out);
    }

    /**
     * What the units held on a node count against: a MIG instance against its profile's resource where the node
     * offers it (the mixed strategy), every other unit against whole GPUs (a card, a time-slice, a HAMi share, a MIG
     * instance under the single strategy).
     */
    static Map<String, Long> heldPerResource(List<HeldUnit> units, Map<String, Long> capacity) {
        Map<String, String> migResource = new HashMap<>();
        for (String resource : capacity.keySet()) {
            if (Resources.isMig(resource)) {
                try {
                    MigProfile.fromResourceName(resource).ifPresent(p -> migResource.put(p.raw(), resource));
                } catch (IllegalArgumentException e) {
                    // a resource whose profile does not parse counts nothing of its own
                }
            }
        }
        Map<String, Long> out = new TreeMap<>();
        for (HeldUnit u : units) {
            String resource = Optional.ofNullable(u.kind() == UnitKind.MIG ? migResource.get(u.migProfile()) : null)
                    .orElse(Resources.GPU);
            out.merge(resource, 1L, Long::sum);
        }
        return out;
    }
}
