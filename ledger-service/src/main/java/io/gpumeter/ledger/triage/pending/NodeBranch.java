package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.NodeTaint;
import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.ledger.triage.domain.Commands;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A pod's wait on the nodes: which nodes offer the resource it asks, which of them carry the labels it selects, which
 * of those admit it (no untolerated taint, not cordoned), whether any could hold what it asks per pod; then, among
 * those that admit it, the {@link CapacityBranch} tells room left, a device plugin not reporting and a full cluster
 * apart.
 */
final class NodeBranch {

    private NodeBranch() {
    }

    static WaitDiagnosis pod(Findings f) {
        if (f.w.gated()) {
            f.said();
            f.checked.add("a scheduling gate holds it back; its Workload" + (f.w.localQueue() == null ? ""
                    : " in LocalQueue '" + f.w.localQueue() + "'") + " is not in the ledger, so why Kueue holds it could not be read");
            return f.decided(PendingReason.OTHER, Confidence.LOW);
        }
        if (PendingTree.SAID_OUTRIGHT.contains(f.w.told())) {
            f.said();
            return f.decided(f.w.told(), Confidence.HIGH);
        }
        String resource = Resources.decidingResource(f.w.asks());
        if (resource == null) {
            f.said();
            f.checked.add("it asks for no GPU resource the nodes could be judged by");
            return f.decided(f.w.told(), Confidence.LOW);
        }
        long need = Resources.need(f.w.asks(), resource);
        if (!f.fleet.statusesKnown()) {
            f.said();
            f.checked.add("no node status of cluster '" + f.fleet.cluster() + "' is stored by " + f.fleet.at()
                    + ": allocatable, taints, cordons and device plugins could not be read");
            return f.decided(f.w.told(), f.w.told() == PendingReason.OTHER ? Confidence.LOW : Confidence.MEDIUM);
        }
        f.checked.add("the " + f.fleet.nodes().size() + " nodes of cluster '" + f.fleet.cluster() + "' at " + f.fleet.at()
                + ": labels, " + resource + " capacity and allocatable, taints, cordons, device plugins and what is held");
        List<NodeAt> offering = f.fleet.nodes().stream().filter(n -> n.has(resource) > 0).toList();
        if (offering.isEmpty()) {
            return noneOffers(f, resource);
        }
        List<NodeAt> matching = offering;
        if (!f.w.placementKnown()) {
            f.checked.add("the pod's view says nothing of its node selector, affinity or tolerations (collected before"
                    + " views carried them): every node offering " + resource + " is taken as one it may go to");
        } else {
            f.checked.add("its placement: " + Placement.describe(f.w.placement()));
            matching = offering.stream().filter(n -> !n.labelsKnown()
                    || Placement.selects(f.w.placement(), n.name(), n.labels())).toList();
            offering.stream().filter(n -> !n.labelsKnown()).findFirst().ifPresent(n -> f.checked.add("node " + n.name()
                    + "'s labels beyond NVIDIA's are not in the ledger: taken as matching its selector"));
            if (matching.isEmpty()) {
                return noMatchingNode(f, resource, offering);
            }
        }
        List<NodeAt> admitted = matching.stream().filter(n -> !(n.statusKnown() && n.cordoned())
                && (!f.w.placementKnown() || Placement.untolerated(f.w.placement(), n.taints()).isEmpty())).toList();
        if (admitted.isEmpty()) {
            return refusedByNodes(f, resource, matching);
        }
        NodeAt largest = admitted.stream().max((a, b) -> Long.compare(a.has(resource), b.has(resource))).orElseThrow();
        if (need > largest.has(resource) && admitted.stream().allMatch(NodeAt::statusKnown)) {
            f.said();
            f.evidence.add(new Triage.Evidence(largest.statusAt(), "node", "it asks " + need + " " + resource
                    + " per pod; the most any node it may go to has is " + largest.has(resource) + " (node "
                    + largest.name() + ")", WaitCommands.nodesOffering(resource)));
            f.alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(),
                    "even an empty node it may go to has fewer than it asks"));
            return f.decided(PendingReason.INVALID_REQUEST, Confidence.HIGH);
        }
        List<NodeAt> roomy = admitted.stream().filter(n -> n.statusKnown() && !n.notReporting(resource)
                && n.allocatable(resource) - n.held(resource) >= need).toList();
        if (!roomy.isEmpty()) {
            return CapacityBranch.roomLeft(f, resource, need, roomy);
        }
        // a node whose plugin does not report decides the wait only where its cards would hold the pod if reported
        List<NodeAt> blind = admitted.stream().filter(n -> n.notReporting(resource)
                && n.has(resource) - n.held(resource) >= need).toList();
        if (!blind.isEmpty()) {
            return CapacityBranch.notReporting(f, resource, need, blind, admitted);
        }
        return CapacityBranch.clusterFull(f, resource, need, admitted);
    }

    static WaitDiagnosis noneOffers(Findings f, String resource) {
        f.said();
        if (Resources.isMig(resource)) {
            String offered = f.fleet.nodes().stream().flatMap(n -> n.capacity().keySet().stream())
                    .filter(Resources::isMig).distinct().sorted().collect(Collectors.joining(", "));
            f.evidence.add(new Triage.Evidence(f.fleet.at(), "node", "it asks " + resource + "; no node offers that MIG profile"
                    + (offered.isEmpty() ? " (no node offers any)" : " (offered: " + offered + ")"),
                    WaitCommands.nodesOffering(resource)));
            f.alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(), "no node has " + resource + " to be full"));
            return f.decided(PendingReason.INVALID_REQUEST, Confidence.HIGH);
        }
        f.evidence.add(new Triage.Evidence(f.fleet.at(), "node", "no node's status offers " + resource,
                WaitCommands.nodesOffering(resource)));
        f.checked.add("no node offering " + resource + " is in the ledger: the nodes that have the cards may not be collected");
        return f.decided(PendingReason.NO_DEVICE, Confidence.MEDIUM);
    }

    static WaitDiagnosis noMatchingNode(Findings f, String resource, List<NodeAt> offering) {
        f.said();
        f.evidence.add(new Triage.Evidence(f.w.toldAt(), "pod-spec", "it selects " + Placement.describe(f.w.placement()),
                Commands.podSpec(f.w.namespace(), f.w.name(), "{.spec.nodeSelector} {.spec.affinity.nodeAffinity}")));
        f.evidence.add(new Triage.Evidence(f.fleet.at(), "node", "none of the " + offering.size() + " nodes offering "
                + resource + " carries those labels" + nearMiss(f, offering),
                WaitCommands.nodesSelected(Placement.labelSelector(f.w.placement()))));
        f.alternatives.add(new Triage.Alternative(PendingReason.AFFINITY_OR_TAINT.label(), "no node offering " + resource
                + " carries the labels it selects, so no taint or cordon decided it"));
        f.alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(), "no node it may go to exists to be full"));
        return f.decided(PendingReason.NO_MATCHING_NODE, f.w.told() == PendingReason.INSUFFICIENT_RESOURCES
                ? Confidence.MEDIUM : Confidence.HIGH);
    }

    /** What the nodes carry of the selector's own keys, so a near miss (a value misspelt) shows. */
    static String nearMiss(Findings f, List<NodeAt> offering) {
        if (f.w.placement() == null || f.w.placement().nodeSelector().isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        for (String key : new TreeMap<>(f.w.placement().nodeSelector()).keySet()) {
            TreeMap<String, Integer> values = new TreeMap<>();
            offering.forEach(n -> values.merge(n.labels().getOrDefault(key, "(none)"), 1, Integer::sum));
            parts.add(key + " on them: " + values.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")")
                    .collect(Collectors.joining(", ")));
        }
        return "; " + String.join("; ", parts);
    }

    static WaitDiagnosis refusedByNodes(Findings f, String resource, List<NodeAt> matching) {
        f.said();
        int shown = 0;
        for (NodeAt n : matching) {
            if (shown++ == PendingTree.NODES_SHOWN) {
                f.evidence.add(new Triage.Evidence(f.fleet.at(), "node", "and " + (matching.size() - PendingTree.NODES_SHOWN)
                        + " more nodes refuse it alike", WaitCommands.nodesSelected(Placement.labelSelector(f.w.placement()))));
                break;
            }
            f.nodes.add(n.name());
            if (n.cordoned()) {
                f.evidence.add(new Triage.Evidence(n.statusAt(), "node", "node " + n.name() + " is cordoned (spec.unschedulable)",
                        Commands.describeNode(n.name())));
            }
            List<NodeTaint> refused = Placement.untolerated(f.w.placement(), n.taints());
            if (!refused.isEmpty()) {
                f.evidence.add(new Triage.Evidence(n.statusAt(), "node", "node " + n.name() + " is tainted "
                        + refused.stream().map(Placement::taint).collect(Collectors.joining(", "))
                        + ", which the pod does not tolerate", Commands.nodeTaints(n.name())));
            }
        }
        String tolerations = f.w.placement() == null || f.w.placement().tolerations().isEmpty() ? "none"
                : f.w.placement().tolerations().stream().map(t -> (t.key() == null ? "*" : t.key())
                + ("Exists".equals(t.operator()) ? "" : "=" + t.value()) + (t.effect() == null ? "" : ":" + t.effect()))
                .collect(Collectors.joining(", "));
        f.evidence.add(new Triage.Evidence(f.w.toldAt(), "pod-spec", "its tolerations: " + tolerations,
                Commands.podSpec(f.w.namespace(), f.w.name(), "{.spec.tolerations}")));
        f.alternatives.add(new Triage.Alternative(PendingReason.NO_MATCHING_NODE.label(), matching.size() + " node"
                + (matching.size() == 1 ? "" : "s") + " offering " + resource + " carry the labels it selects: "
                + Findings.names(matching)));
        f.alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(),
                "the nodes it selects refuse it whatever they hold"));
        if (f.w.asks().keySet().stream().anyMatch(r -> r.startsWith("nvidia.com/gpum") || r.equals("nvidia.com/gpucores"))) {
            f.alternatives.add(new Triage.Alternative(PendingReason.WRONG_SCHEDULER.label(), "spec.schedulerName '"
                    + f.w.scheduler() + "' is one that places HAMi's resources"));
        }
        return f.decided(PendingReason.AFFINITY_OR_TAINT, f.w.told() == PendingReason.INSUFFICIENT_RESOURCES
                ? Confidence.MEDIUM : Confidence.HIGH);
    }
}
