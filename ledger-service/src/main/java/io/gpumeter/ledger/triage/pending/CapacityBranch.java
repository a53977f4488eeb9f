package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.ledger.triage.domain.Commands;

import java.util.List;
import java.util.Locale;

/**
 * The scheduler's "Insufficient nvidia.com/gpu" told apart on the nodes a pod may go to: one of them has room for it
 * now (the refusal came before, or was for what the ledger does not read), their device plugin does not report cards
 * that are there ({@code no-device}), or every one reports its cards and all of them are held ({@code cluster-full}).
 */
final class CapacityBranch {

    private CapacityBranch() {
    }

    static WaitDiagnosis roomLeft(Findings f, String resource, long need, List<NodeAt> roomy) {
        f.said();
        NodeAt n = roomy.get(0);
        long free = n.allocatable(resource) - n.held(resource);
        f.evidence.add(new Triage.Evidence(n.statusAt(), "node", "node " + n.name() + " admits it and has " + free + " of "
                + n.allocatable(resource) + " " + resource + " free (" + n.held(resource) + " held); it needs " + need,
                Commands.describeNode(n.name())));
        f.alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(), roomy.size() + " node"
                + (roomy.size() == 1 ? "" : "s") + " it may go to " + (roomy.size() == 1 ? "has" : "have") + " room for its "
                + resource + ": " + Findings.names(roomy)));
        f.alternatives.add(new Triage.Alternative(PendingReason.NO_DEVICE.label(), "node " + n.name()
                + " reports its " + resource + " and its device plugin is not down"));
        String message = f.w.message() == null ? "" : f.w.message().toLowerCase(Locale.ROOT);
        if (f.w.told() == PendingReason.INSUFFICIENT_RESOURCES && !message.contains(resource.toLowerCase(Locale.ROOT))) {
            f.checked.add("the scheduler found too little of a resource the ledger does not hold (CPU, memory, pods)");
            return f.decided(PendingReason.INSUFFICIENT_RESOURCES, Confidence.MEDIUM);
        }
        f.checked.add("node " + n.name() + " has room for its " + resource + " at " + f.fleet.at() + ": the refusal"
                + (f.w.toldAt() == null ? "" : " at " + f.w.toldAt()) + " came before that room, or is for what the ledger"
                + " does not read (CPU, memory, volumes, host ports)");
        return f.decided(f.w.told(), Confidence.LOW);
    }

    static WaitDiagnosis notReporting(Findings f, String resource, long need, List<NodeAt> blind, List<NodeAt> admitted) {
        f.said();
        int shown = 0;
        for (NodeAt n : blind) {
            if (shown++ == PendingTree.NODES_SHOWN) {
                f.evidence.add(new Triage.Evidence(f.fleet.at(), "node", "and " + (blind.size() - PendingTree.NODES_SHOWN)
                        + " more nodes alike", WaitCommands.nodesOffering(resource)));
                break;
            }
            f.nodes.add(n.name());
            if (n.statusKnown()) {
                f.evidence.add(new Triage.Evidence(n.statusAt(), "node", "node " + n.name() + ": allocatable " + resource
                        + " " + n.allocatable(resource) + " of capacity " + n.capacity().getOrDefault(resource, n.has(resource))
                        + ", " + n.held(resource) + " held", Commands.nodeAllocatable(n.name())));
            }
            DevicePlugin p = n.plugin();
            String fact = switch (p.state()) {
                case NOT_READY -> "device plugin pod " + p.namespace() + "/" + p.name() + " on node " + n.name()
                        + " is not ready" + (p.waitingReason() == null ? "" : " (" + p.waitingReason() + ")")
                        + (p.restarts() > 0 ? ", " + p.restarts() + " restarts" : "");
                case ABSENT -> "no device plugin pod runs on node " + n.name();
                case READY -> "device plugin pod " + p.namespace() + "/" + p.name() + " on node " + n.name()
                        + " is ready, yet the node reports no " + resource;
                case UNKNOWN -> null;
            };
            if (fact != null) {
                f.evidence.add(new Triage.Evidence(p.observedAt() != null ? p.observedAt() : f.fleet.at(), "gpu-stack", fact,
                        WaitCommands.devicePlugin(p, n.name())));
            }
            if (p.name() != null) {
                f.named.add(new Triage.Named(Triage.SubjectKind.POD, p.namespace(), p.name(), null));
            }
        }
        NodeAt first = blind.get(0);
        f.alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(), "node " + first.name() + " has "
                + first.has(resource) + " " + resource + " and " + first.held(resource)
                + " held: its cards are there, its device plugin does not report them"));
        f.alternatives.add(new Triage.Alternative(PendingReason.AFFINITY_OR_TAINT.label(), admitted.size() + " node"
                + (admitted.size() == 1 ? "" : "s") + " carry the labels it selects and admit it: " + Findings.names(admitted)));
        if (first.plugin().state() == DevicePlugin.State.UNKNOWN) {
            f.checked.add("no device plugin pod of cluster '" + f.fleet.cluster() + "' is in the ledger: judged by allocatable alone");
        }
        boolean named = f.w.told() == PendingReason.INSUFFICIENT_RESOURCES || f.w.told() == PendingReason.NO_DEVICE;
        return f.decided(PendingReason.NO_DEVICE, named ? Confidence.HIGH : Confidence.MEDIUM);
    }

    static WaitDiagnosis clusterFull(Findings f, String resource, long need, List<NodeAt> admitted) {
        f.said();
        int shown = 0;
        for (NodeAt n : admitted) {
            f.nodes.add(n.name());
            if (shown++ < PendingTree.NODES_SHOWN) {
                f.evidence.add(new Triage.Evidence(n.statusAt(), "node", "node " + n.name() + ": " + n.held(resource)
                        + " of " + n.allocatable(resource) + " allocatable " + resource + " held, "
                        + Math.max(0, n.allocatable(resource) - n.held(resource)) + " free; it needs " + need,
                        Commands.describeNode(n.name())));
            }
        }
        if (admitted.size() > PendingTree.NODES_SHOWN) {
            f.evidence.add(new Triage.Evidence(f.fleet.at(), "node", "and " + (admitted.size() - PendingTree.NODES_SHOWN)
                    + " more nodes as full", WaitCommands.nodesOffering(resource)));
        }
        boolean allReady = admitted.stream().allMatch(n -> n.plugin().state() == DevicePlugin.State.READY);
        boolean anyUnknown = admitted.stream().anyMatch(n -> n.plugin().state() == DevicePlugin.State.UNKNOWN);
        if (allReady) {
            f.evidence.add(new Triage.Evidence(f.fleet.at(), "gpu-stack", "the device plugin is ready on all "
                    + admitted.size() + " of them", WaitCommands.devicePlugin(admitted.get(0).plugin(), admitted.get(0).name())));
        }
        if (anyUnknown) {
            f.checked.add("no device plugin pod of cluster '" + f.fleet.cluster() + "' is in the ledger: judged by allocatable alone");
        }
        f.alternatives.add(new Triage.Alternative(PendingReason.NO_DEVICE.label(), "every node it may go to reports its "
                + resource + " (allocatable above 0)" + (allReady ? " and runs a ready device plugin" : "")
                + ", and what it reports is held"));
        f.alternatives.add(new Triage.Alternative(PendingReason.AFFINITY_OR_TAINT.label(), admitted.size() + " node"
                + (admitted.size() == 1 ? "" : "s") + " carry the labels it selects and admit it"));
        boolean named = f.w.told() == PendingReason.INSUFFICIENT_RESOURCES;
        return f.decided(PendingReason.CLUSTER_FULL, named && !anyUnknown ? Confidence.HIGH : Confidence.MEDIUM);
    }
}
