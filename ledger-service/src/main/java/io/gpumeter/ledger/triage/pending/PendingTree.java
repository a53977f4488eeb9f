package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.NodeTaint;
import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.RootCauseClass;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.ledger.governance.domain.QueueSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The PENDING branch of the diagnosis tree: from what waits and the nodes as they stood, the cause of the wait and the
 * facts that decide it. The scheduler often says the same ("0/N nodes are available: N Insufficient nvidia.com/gpu")
 * for several causes, so its message is where the walk starts, not where it ends:
 * <ol>
 *   <li>the kubelet's refusal of a placed pod (TopologyAffinityError, UnexpectedAdmissionError);</li>
 *   <li>the request itself (a HAMi request sent to another scheduler, gpumem with gpumem-percentage, cores over 100,
 *       a MIG profile no node offers, more per pod than any node has);</li>
 *   <li>the queue: a Workload's ClusterQueue inactive, its admission checks, a flavor that does not fit, its quota
 *       used up, or quota to spare and its turn not come (its place in the queue); a PodGroup's gang or Volcano
 *       queue;</li>
 *   <li>the nodes: none that offers the resource carries the labels the pod selects; those that do refuse it (taint,
 *       cordon); their device plugin does not report the resource (allocatable 0, its pod not ready or absent); or
 *       every one that would take it reports the resource and all of it is held.</li>
 * </ol>
 * What is left is the class of what was said, with what could not be read in {@code checked}.
 */
public final class PendingTree {

    /** The nodes named one by one in the evidence; the rest are counted. */
    static final int NODES_SHOWN = 5;

    /** Causes a scheduler's or Volcano's message names outright, which no node fact decides otherwise. */
    private static final Set<PendingReason> SAID_OUTRIGHT = EnumSet.of(PendingReason.GANG, PendingReason.VOLCANO_QUEUE,
            PendingReason.QUOTA, PendingReason.FLAVOR, PendingReason.ADMISSION_CHECK, PendingReason.INACTIVE);

    private PendingTree() {
    }

    public static WaitDiagnosis diagnose(Waiting waiting, Fleet fleet) {
        return new Walk(waiting, fleet).run();
    }

    /**
     * A pod a scheduling gate holds back until its Workload is admitted waits for what its Workload waits for: the
     * Workload's diagnosis, with the gate as its first fact.
     */
    public static WaitDiagnosis heldByGate(WaitDiagnosis workload, Waiting pod, String workloadName) {
        List<Triage.Evidence> evidence = new ArrayList<>();
        evidence.add(new Triage.Evidence(pod.toldAt(), "pod-status", "SchedulingGated: a scheduling gate holds the pod"
                + " back until its Workload '" + workloadName + "' is admitted", Commands.describePod(pod.namespace(), pod.name())));
        evidence.addAll(workload.evidence());
        List<String> checked = new ArrayList<>();
        checked.add("the pod's scheduling gate and its Workload '" + workloadName + "'");
        checked.addAll(workload.checked());
        List<Triage.Named> named = new ArrayList<>(workload.named());
        named.add(new Triage.Named(Triage.SubjectKind.WORKLOAD, pod.namespace(), workloadName, null));
        return new WaitDiagnosis(workload.cause(), workload.reason(), workload.layer(), workload.confidence(),
                workload.scope(), workload.nodes(), evidence, workload.alternatives(), checked, named);
    }

    /** How far a cause reaches. */
    static String scope(PendingReason reason) {
        return switch (reason) {
            case CLUSTER_FULL, INSUFFICIENT_RESOURCES -> "CLUSTER";
            case NO_DEVICE -> "NODE";
            case QUOTA, QUEUED, INACTIVE, ADMISSION_CHECK, FLAVOR, VOLCANO_QUEUE, GANG -> "QUEUE";
            default -> "POD";
        };
    }

    private static final class Walk {

        private final Waiting w;
        private final Fleet fleet;
        private final List<Triage.Evidence> evidence = new ArrayList<>();
        private final List<Triage.Alternative> alternatives = new ArrayList<>();
        private final List<String> checked = new ArrayList<>();
        private final List<String> nodes = new ArrayList<>();
        private final List<Triage.Named> named = new ArrayList<>();

        Walk(Waiting w, Fleet fleet) {
            this.w = w;
            this.fleet = fleet;
        }

        WaitDiagnosis run() {
            if ("TopologyAffinityError".equals(w.podReason()) || "UnexpectedAdmissionError".equals(w.podReason())) {
                return kubelet();
            }
            if ("RequestCheck".equals(w.reason())) {
                return requestCheck();
            }
            return switch (w.source()) {
                case KUEUE -> kueue();
                case VOLCANO -> volcano();
                case POD -> pod();
            };
        }

        // ---- the kubelet and the request ----

        private WaitDiagnosis kubelet() {
            boolean topology = "TopologyAffinityError".equals(w.podReason());
            evidence.add(new Triage.Evidence(w.toldAt(), "pod-status", "status.reason " + w.podReason()
                    + (w.podMessage() == null ? "" : ": " + w.podMessage())
                    + (topology ? " (the kubelet's topology manager found no NUMA-aligned set of devices and CPUs)"
                    : " (the kubelet could not get the devices the scheduler placed it on)"),
                    Commands.describePod(w.namespace(), w.name())));
            alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(),
                    "the scheduler placed it on a node: the kubelet refused it there"));
            checked.add("the pod's status reason as the kubelet wrote it");
            if (topology) {
                FailureCause cause = FailureCause.TOPOLOGY_AFFINITY;
                return new WaitDiagnosis(cause.label(), null, cause.rootCause(), Confidence.HIGH, "NODE", nodes, evidence,
                        alternatives, checked, named);
            }
            return decided(PendingReason.NO_DEVICE, Confidence.HIGH);
        }

        private WaitDiagnosis requestCheck() {
            evidence.add(new Triage.Evidence(w.toldAt(), "pod-spec", w.message(),
                    Commands.podSpec(w.namespace(), w.name(), "{.spec.schedulerName} {.spec.containers[*].resources}")));
            String anyNode = "no node can honour the request as written, whatever it holds";
            if (w.told() == PendingReason.WRONG_SCHEDULER) {
                alternatives.add(new Triage.Alternative(PendingReason.AFFINITY_OR_TAINT.label(), "spec.schedulerName '"
                        + w.scheduler() + "' does not place HAMi's resources on any node, whatever its labels and taints"));
            }
            alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(), anyNode));
            checked.add("the pod's GPU request and scheduler");
            return decided(w.told(), Confidence.HIGH);
        }

        // ---- Kueue ----

        private WaitDiagnosis kueue() {
            KueueQueue k = w.kueue();
            checked.add("the Workload's conditions and events");
            if ("INACTIVE".equals(w.state()) || w.told() == PendingReason.ADMISSION_CHECK) {
                said();
                return decided(w.told() == PendingReason.ADMISSION_CHECK ? PendingReason.ADMISSION_CHECK : PendingReason.INACTIVE,
                        Confidence.HIGH);
            }
            ObjectCondition off = k == null ? null : k.inactive();
            if (off != null) {
                evidence.add(new Triage.Evidence(off.lastTransitionTime(), "cluster-queue", "ClusterQueue '"
                        + k.clusterQueue().name() + "' is not active: " + off.reason()
                        + (off.message() == null ? "" : " (" + off.message() + ")"), Commands.clusterQueue(k.clusterQueue().name())));
                said();
                alternatives.add(new Triage.Alternative(PendingReason.QUOTA.label(),
                        "a ClusterQueue that is not active admits nothing, whatever its quota"));
                return decided(PendingReason.INACTIVE, Confidence.HIGH);
            }
            if (k == null || k.clusterQueue() == null) {
                checked.add("its ClusterQueue" + (w.clusterQueue() == null ? "" : " '" + w.clusterQueue() + "'")
                        + " is not in the ledger: its quota and whether it is active could not be read");
            } else {
                checked.add("ClusterQueue '" + k.clusterQueue().name() + "': active, quota and reservation");
            }
            if (w.told() == PendingReason.FLAVOR) {
                said();
                alternatives.add(new Triage.Alternative(PendingReason.QUOTA.label(),
                        "Kueue says no flavor of its ClusterQueue fits it, not that the quota is used up"));
                return decided(PendingReason.FLAVOR, Confidence.HIGH);
            }
            KueueQueue.Position position = k == null ? null : k.position();
            Boolean room = k == null ? null : k.hasRoom();
            if (position == null) {
                checked.add("no pending position: Kueue's visibility API has not listed it");
            }
            if (w.told() == PendingReason.QUOTA) {
                said();
                rooms(k);
                if (Boolean.TRUE.equals(room) && position != null) {
                    position(position);
                    alternatives.add(new Triage.Alternative(PendingReason.QUOTA.label(), "its ClusterQueue has room for what it"
                            + " asks at " + fleet.at() + ", after Kueue's refusal" + (w.toldAt() == null ? "" : " at " + w.toldAt())));
                    return decided(PendingReason.QUEUED, Confidence.MEDIUM);
                }
                alternatives.add(new Triage.Alternative(PendingReason.QUEUED.label(), Boolean.FALSE.equals(room)
                        ? "its ClusterQueue has no room for what it asks: its turn would not admit it"
                        : "Kueue says its quota is short"));
                return decided(PendingReason.QUOTA, Confidence.HIGH);
            }
            if (w.told() == PendingReason.OTHER) {
                checked.add("Kueue has written no refusal of it: no QuotaReserved=False message, no Pending event");
                if (Boolean.FALSE.equals(room)) {
                    rooms(k);
                    if (position != null) {
                        position(position);
                    }
                    alternatives.add(new Triage.Alternative(PendingReason.QUEUED.label(),
                            "its ClusterQueue has no room for what it asks: its turn would not admit it"));
                    return decided(PendingReason.QUOTA, Confidence.MEDIUM);
                }
                if (position != null) {
                    position(position);
                    rooms(k);
                    alternatives.add(new Triage.Alternative(PendingReason.QUOTA.label(), Boolean.TRUE.equals(room)
                            ? "its ClusterQueue has room for what it asks" : "Kueue has refused it nothing for want of quota"));
                    return decided(PendingReason.QUEUED, Boolean.TRUE.equals(room) ? Confidence.HIGH : Confidence.MEDIUM);
                }
                return decided(PendingReason.OTHER, Confidence.LOW);
            }
            said();
            return decided(w.told(), Confidence.MEDIUM);
        }

        private void position(KueueQueue.Position p) {
            String cq = w.kueue().clusterQueue() != null ? w.kueue().clusterQueue().name() : w.clusterQueue();
            String place = p.inClusterQueue() == 0 ? "next to be considered in ClusterQueue '" + cq + "'"
                    : "position " + p.inClusterQueue() + " in ClusterQueue '" + cq + "': " + p.inClusterQueue()
                    + (p.inClusterQueue() == 1 ? " workload" : " workloads") + " ahead of it";
            if (p.inLocalQueue() != null) {
                place += "; position " + p.inLocalQueue() + " in its LocalQueue '" + w.localQueue() + "'";
            }
            if (p.priority() != null) {
                place += "; priority " + p.priority();
            }
            evidence.add(new Triage.Evidence(p.observedAt(), "pending-position", place,
                    w.localQueue() == null ? Commands.workload(w.namespace(), w.name())
                            : Commands.pendingWorkloads(w.namespace(), w.localQueue())));
        }

        private void rooms(KueueQueue k) {
            if (k == null || k.clusterQueue() == null) {
                return;
            }
            for (KueueQueue.Room r : k.rooms()) {
                evidence.add(new Triage.Evidence(k.clusterQueue().observedAt(), "cluster-queue", r.resource() + " in flavor '"
                        + r.flavor() + "' of ClusterQueue '" + k.clusterQueue().name() + "': " + plain(r.reserved())
                        + " reserved of " + plain(r.nominal()) + " nominal"
                        + (r.borrowingLimit() == null ? "" : " (+" + plain(r.borrowingLimit()) + " it may borrow)")
                        + ", " + plain(r.free()) + " free; it asks " + plain(r.ask()),
                        Commands.clusterQueue(k.clusterQueue().name())));
            }
        }

        // ---- Volcano ----

        private WaitDiagnosis volcano() {
            checked.add("the PodGroup's conditions and events");
            if (w.told() == PendingReason.OTHER) {
                checked.add("Volcano has written no Unschedulable condition on the PodGroup");
                return decided(PendingReason.OTHER, Confidence.LOW);
            }
            said();
            if (w.told() == PendingReason.VOLCANO_QUEUE && w.volcanoQueue() != null) {
                evidence.add(new Triage.Evidence(w.toldAt(), "volcano-queue", "its Volcano queue '" + w.volcanoQueue() + "'",
                        Commands.volcanoQueue(w.volcanoQueue())));
            }
            return decided(w.told(), SAID_OUTRIGHT.contains(w.told()) ? Confidence.HIGH : Confidence.MEDIUM);
        }

        // ---- a pod and the nodes ----

        private WaitDiagnosis pod() {
            if (w.gated()) {
                said();
                checked.add("a scheduling gate holds it back; its Workload" + (w.localQueue() == null ? ""
                        : " in LocalQueue '" + w.localQueue() + "'") + " is not in the ledger, so why Kueue holds it could not be read");
                return decided(PendingReason.OTHER, Confidence.LOW);
            }
            if (SAID_OUTRIGHT.contains(w.told())) {
                said();
                return decided(w.told(), Confidence.HIGH);
            }
            String resource = Resources.decidingResource(w.asks());
            if (resource == null) {
                said();
                checked.add("it asks for no GPU resource the nodes could be judged by");
                return decided(w.told(), Confidence.LOW);
            }
            long need = Resources.need(w.asks(), resource);
            if (!fleet.statusesKnown()) {
                said();
                checked.add("no node status of cluster '" + fleet.cluster() + "' is stored by " + fleet.at()
                        + ": allocatable, taints, cordons and device plugins could not be read");
                return decided(w.told(), w.told() == PendingReason.OTHER ? Confidence.LOW : Confidence.MEDIUM);
            }
            checked.add("the " + fleet.nodes().size() + " nodes of cluster '" + fleet.cluster() + "' at " + fleet.at()
                    + ": labels, " + resource + " capacity and allocatable, taints, cordons, device plugins and what is held");
            List<NodeAt> offering = fleet.nodes().stream().filter(n -> n.has(resource) > 0).toList();
            if (offering.isEmpty()) {
                return noneOffers(resource);
            }
            List<NodeAt> matching = offering;
            if (!w.placementKnown()) {
                checked.add("the pod's view says nothing of its node selector, affinity or tolerations (collected before"
                        + " views carried them): every node offering " + resource + " is taken as one it may go to");
            } else {
                checked.add("its placement: " + Placement.describe(w.placement()));
                matching = offering.stream().filter(n -> !n.labelsKnown()
                        || Placement.selects(w.placement(), n.name(), n.labels())).toList();
                offering.stream().filter(n -> !n.labelsKnown()).findFirst().ifPresent(n -> checked.add("node " + n.name()
                        + "'s labels beyond NVIDIA's are not in the ledger: taken as matching its selector"));
                if (matching.isEmpty()) {
                    return noMatchingNode(resource, offering);
                }
            }
            List<NodeAt> admitted = matching.stream().filter(n -> !(n.statusKnown() && n.cordoned())
                    && (!w.placementKnown() || Placement.untolerated(w.placement(), n.taints()).isEmpty())).toList();
            if (admitted.isEmpty()) {
                return refusedByNodes(resource, matching);
            }
            NodeAt largest = admitted.stream().max((a, b) -> Long.compare(a.has(resource), b.has(resource))).orElseThrow();
            if (need > largest.has(resource) && admitted.stream().allMatch(NodeAt::statusKnown)) {
                said();
                evidence.add(new Triage.Evidence(largest.statusAt(), "node", "it asks " + need + " " + resource
                        + " per pod; the most any node it may go to has is " + largest.has(resource) + " (node "
                        + largest.name() + ")", Commands.nodesOffering(resource)));
                alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(),
                        "even an empty node it may go to has fewer than it asks"));
                return decided(PendingReason.INVALID_REQUEST, Confidence.HIGH);
            }
            List<NodeAt> roomy = admitted.stream().filter(n -> n.statusKnown() && !n.notReporting(resource)
                    && n.allocatable(resource) - n.held(resource) >= need).toList();
            if (!roomy.isEmpty()) {
                return roomLeft(resource, need, roomy);
            }
            // a node whose plugin does not report decides the wait only where its cards would hold the pod if reported
            List<NodeAt> blind = admitted.stream().filter(n -> n.notReporting(resource)
                    && n.has(resource) - n.held(resource) >= need).toList();
            if (!blind.isEmpty()) {
                return notReporting(resource, need, blind, admitted);
            }
            return clusterFull(resource, need, admitted);
        }

        private WaitDiagnosis noneOffers(String resource) {
            said();
            if (Resources.isMig(resource)) {
                String offered = fleet.nodes().stream().flatMap(n -> n.capacity().keySet().stream())
                        .filter(Resources::isMig).distinct().sorted().collect(Collectors.joining(", "));
                evidence.add(new Triage.Evidence(fleet.at(), "node", "it asks " + resource + "; no node offers that MIG profile"
                        + (offered.isEmpty() ? " (no node offers any)" : " (offered: " + offered + ")"),
                        Commands.nodesOffering(resource)));
                alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(), "no node has " + resource + " to be full"));
                return decided(PendingReason.INVALID_REQUEST, Confidence.HIGH);
            }
            evidence.add(new Triage.Evidence(fleet.at(), "node", "no node's status offers " + resource,
                    Commands.nodesOffering(resource)));
            checked.add("no node offering " + resource + " is in the ledger: the nodes that have the cards may not be collected");
            return decided(PendingReason.NO_DEVICE, Confidence.MEDIUM);
        }

        private WaitDiagnosis noMatchingNode(String resource, List<NodeAt> offering) {
            said();
            evidence.add(new Triage.Evidence(w.toldAt(), "pod-spec", "it selects " + Placement.describe(w.placement()),
                    Commands.podSpec(w.namespace(), w.name(), "{.spec.nodeSelector} {.spec.affinity.nodeAffinity}")));
            evidence.add(new Triage.Evidence(fleet.at(), "node", "none of the " + offering.size() + " nodes offering "
                    + resource + " carries those labels" + nearMiss(offering),
                    Commands.nodesSelected(Placement.labelSelector(w.placement()))));
            alternatives.add(new Triage.Alternative(PendingReason.AFFINITY_OR_TAINT.label(), "no node offering " + resource
                    + " carries the labels it selects, so no taint or cordon decided it"));
            alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(), "no node it may go to exists to be full"));
            return decided(PendingReason.NO_MATCHING_NODE, w.told() == PendingReason.INSUFFICIENT_RESOURCES
                    ? Confidence.MEDIUM : Confidence.HIGH);
        }

        /** What the nodes carry of the selector's own keys, so a near miss (a value misspelt) shows. */
        private String nearMiss(List<NodeAt> offering) {
            if (w.placement() == null || w.placement().nodeSelector().isEmpty()) {
                return "";
            }
            List<String> parts = new ArrayList<>();
            for (String key : new TreeMap<>(w.placement().nodeSelector()).keySet()) {
                TreeMap<String, Integer> values = new TreeMap<>();
                offering.forEach(n -> values.merge(n.labels().getOrDefault(key, "(none)"), 1, Integer::sum));
                parts.add(key + " on them: " + values.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")")
                        .collect(Collectors.joining(", ")));
            }
            return "; " + String.join("; ", parts);
        }

        private WaitDiagnosis refusedByNodes(String resource, List<NodeAt> matching) {
            said();
            int shown = 0;
            for (NodeAt n : matching) {
                if (shown++ == NODES_SHOWN) {
                    evidence.add(new Triage.Evidence(fleet.at(), "node", "and " + (matching.size() - NODES_SHOWN)
                            + " more nodes refuse it alike", Commands.nodesSelected(Placement.labelSelector(w.placement()))));
                    break;
                }
                nodes.add(n.name());
                if (n.cordoned()) {
                    evidence.add(new Triage.Evidence(n.statusAt(), "node", "node " + n.name() + " is cordoned (spec.unschedulable)",
                            Commands.describeNode(n.name())));
                }
                List<NodeTaint> refused = Placement.untolerated(w.placement(), n.taints());
                if (!refused.isEmpty()) {
                    evidence.add(new Triage.Evidence(n.statusAt(), "node", "node " + n.name() + " is tainted "
                            + refused.stream().map(Placement::taint).collect(Collectors.joining(", "))
                            + ", which the pod does not tolerate", Commands.nodeTaints(n.name())));
                }
            }
            String tolerations = w.placement() == null || w.placement().tolerations().isEmpty() ? "none"
                    : w.placement().tolerations().stream().map(t -> (t.key() == null ? "*" : t.key())
                    + ("Exists".equals(t.operator()) ? "" : "=" + t.value()) + (t.effect() == null ? "" : ":" + t.effect()))
                    .collect(Collectors.joining(", "));
            evidence.add(new Triage.Evidence(w.toldAt(), "pod-spec", "its tolerations: " + tolerations,
                    Commands.podSpec(w.namespace(), w.name(), "{.spec.tolerations}")));
            alternatives.add(new Triage.Alternative(PendingReason.NO_MATCHING_NODE.label(), matching.size() + " node"
                    + (matching.size() == 1 ? "" : "s") + " offering " + resource + " carry the labels it selects: "
                    + names(matching)));
            alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(),
                    "the nodes it selects refuse it whatever they hold"));
            if (w.asks().keySet().stream().anyMatch(r -> r.startsWith("nvidia.com/gpum") || r.equals("nvidia.com/gpucores"))) {
                alternatives.add(new Triage.Alternative(PendingReason.WRONG_SCHEDULER.label(), "spec.schedulerName '"
                        + w.scheduler() + "' is one that places HAMi's resources"));
            }
            return decided(PendingReason.AFFINITY_OR_TAINT, w.told() == PendingReason.INSUFFICIENT_RESOURCES
                    ? Confidence.MEDIUM : Confidence.HIGH);
        }

        private WaitDiagnosis roomLeft(String resource, long need, List<NodeAt> roomy) {
            said();
            NodeAt n = roomy.get(0);
            long free = n.allocatable(resource) - n.held(resource);
            evidence.add(new Triage.Evidence(n.statusAt(), "node", "node " + n.name() + " admits it and has " + free + " of "
                    + n.allocatable(resource) + " " + resource + " free (" + n.held(resource) + " held); it needs " + need,
                    Commands.describeNode(n.name())));
            alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(), roomy.size() + " node"
                    + (roomy.size() == 1 ? "" : "s") + " it may go to " + (roomy.size() == 1 ? "has" : "have") + " room for its "
                    + resource + ": " + names(roomy)));
            alternatives.add(new Triage.Alternative(PendingReason.NO_DEVICE.label(), "node " + n.name()
                    + " reports its " + resource + " and its device plugin is not down"));
            String message = w.message() == null ? "" : w.message().toLowerCase(Locale.ROOT);
            if (w.told() == PendingReason.INSUFFICIENT_RESOURCES && !message.contains(resource.toLowerCase(Locale.ROOT))) {
                checked.add("the scheduler found too little of a resource the ledger does not hold (CPU, memory, pods)");
                return decided(PendingReason.INSUFFICIENT_RESOURCES, Confidence.MEDIUM);
            }
            checked.add("node " + n.name() + " has room for its " + resource + " at " + fleet.at() + ": the refusal"
                    + (w.toldAt() == null ? "" : " at " + w.toldAt()) + " came before that room, or is for what the ledger"
                    + " does not read (CPU, memory, volumes, host ports)");
            return decided(w.told(), Confidence.LOW);
        }

        private WaitDiagnosis notReporting(String resource, long need, List<NodeAt> blind, List<NodeAt> admitted) {
            said();
            int shown = 0;
            for (NodeAt n : blind) {
                if (shown++ == NODES_SHOWN) {
                    evidence.add(new Triage.Evidence(fleet.at(), "node", "and " + (blind.size() - NODES_SHOWN)
                            + " more nodes alike", Commands.nodesOffering(resource)));
                    break;
                }
                nodes.add(n.name());
                if (n.statusKnown()) {
                    evidence.add(new Triage.Evidence(n.statusAt(), "node", "node " + n.name() + ": allocatable " + resource
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
                    evidence.add(new Triage.Evidence(p.observedAt() != null ? p.observedAt() : fleet.at(), "gpu-stack", fact,
                            Commands.devicePlugin(p, n.name())));
                }
                if (p.name() != null) {
                    named.add(new Triage.Named(Triage.SubjectKind.POD, p.namespace(), p.name(), null));
                }
            }
            NodeAt first = blind.get(0);
            alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(), "node " + first.name() + " has "
                    + first.has(resource) + " " + resource + " and " + first.held(resource)
                    + " held: its cards are there, its device plugin does not report them"));
            alternatives.add(new Triage.Alternative(PendingReason.AFFINITY_OR_TAINT.label(), admitted.size() + " node"
                    + (admitted.size() == 1 ? "" : "s") + " carry the labels it selects and admit it: " + names(admitted)));
            if (first.plugin().state() == DevicePlugin.State.UNKNOWN) {
                checked.add("no device plugin pod of cluster '" + fleet.cluster() + "' is in the ledger: judged by allocatable alone");
            }
            boolean named = w.told() == PendingReason.INSUFFICIENT_RESOURCES || w.told() == PendingReason.NO_DEVICE;
            return decided(PendingReason.NO_DEVICE, named ? Confidence.HIGH : Confidence.MEDIUM);
        }

        private WaitDiagnosis clusterFull(String resource, long need, List<NodeAt> admitted) {
            said();
            int shown = 0;
            for (NodeAt n : admitted) {
                nodes.add(n.name());
                if (shown++ < NODES_SHOWN) {
                    evidence.add(new Triage.Evidence(n.statusAt(), "node", "node " + n.name() + ": " + n.held(resource)
                            + " of " + n.allocatable(resource) + " allocatable " + resource + " held, "
                            + Math.max(0, n.allocatable(resource) - n.held(resource)) + " free; it needs " + need,
                            Commands.describeNode(n.name())));
                }
            }
            if (admitted.size() > NODES_SHOWN) {
                evidence.add(new Triage.Evidence(fleet.at(), "node", "and " + (admitted.size() - NODES_SHOWN)
                        + " more nodes as full", Commands.nodesOffering(resource)));
            }
            boolean allReady = admitted.stream().allMatch(n -> n.plugin().state() == DevicePlugin.State.READY);
            boolean anyUnknown = admitted.stream().anyMatch(n -> n.plugin().state() == DevicePlugin.State.UNKNOWN);
            if (allReady) {
                evidence.add(new Triage.Evidence(fleet.at(), "gpu-stack", "the device plugin is ready on all "
                        + admitted.size() + " of them", Commands.devicePlugin(admitted.get(0).plugin(), admitted.get(0).name())));
            }
            if (anyUnknown) {
                checked.add("no device plugin pod of cluster '" + fleet.cluster() + "' is in the ledger: judged by allocatable alone");
            }
            alternatives.add(new Triage.Alternative(PendingReason.NO_DEVICE.label(), "every node it may go to reports its "
                    + resource + " (allocatable above 0)" + (allReady ? " and runs a ready device plugin" : "")
                    + ", and what it reports is held"));
            alternatives.add(new Triage.Alternative(PendingReason.AFFINITY_OR_TAINT.label(), admitted.size() + " node"
                    + (admitted.size() == 1 ? "" : "s") + " carry the labels it selects and admit it"));
            boolean named = w.told() == PendingReason.INSUFFICIENT_RESOURCES;
            return decided(PendingReason.CLUSTER_FULL, named && !anyUnknown ? Confidence.HIGH : Confidence.MEDIUM);
        }

        // ---- shared ----

        /** What was said about it, as the first fact. */
        private void said() {
            if (w.message() == null && w.reason() == null) {
                String who = switch (w.source()) {
                    case POD -> "the scheduler has written no refusal of it (no FailedScheduling event, no PodScheduled"
                            + " condition)";
                    case KUEUE -> "Kueue has written nothing of it";
                    case VOLCANO -> "Volcano has written nothing of it";
                };
                checked.add(who);
                return;
            }
            String source;
            String command;
            if (w.source() == QueueSource.POD) {
                source = "FailedScheduling".equals(w.reason()) ? "event" : "pod-status";
                command = "FailedScheduling".equals(w.reason()) ? Commands.podEvents(w.namespace(), w.name())
                        : Commands.describePod(w.namespace(), w.name());
            } else if (w.source() == QueueSource.KUEUE) {
                source = "Pending".equals(w.reason()) ? "event" : "workload";
                command = Commands.workload(w.namespace(), w.name());
            } else {
                source = "pod-group";
                command = Commands.podGroup(w.namespace(), w.name());
            }
            String fact = (w.reason() == null ? "" : w.reason()) + (w.message() == null ? "" : (w.reason() == null ? "" : ": ")
                    + w.message());
            if (evidence.stream().noneMatch(e -> e.fact().equals(fact))) {
                evidence.add(0, new Triage.Evidence(w.toldAt(), source, fact, command));
            }
        }

        private WaitDiagnosis decided(PendingReason reason, Confidence confidence) {
            if (reason == PendingReason.OTHER && checked.stream().noneMatch(c -> c.contains("could not")
                    || c.contains("no ") || c.contains("nothing"))) {
                checked.add("no fact the ledger holds names a cause: the refusal's text is not one the tree knows");
            }
            RootCauseClass layer = reason.rootCause();
            return new WaitDiagnosis(reason.label(), reason, layer, confidence, scope(reason), nodes, evidence,
                    alternatives, checked, named);
        }

        private static String names(List<NodeAt> list) {
            String shown = list.stream().limit(NODES_SHOWN).map(NodeAt::name).collect(Collectors.joining(", "));
            return list.size() > NODES_SHOWN ? shown + " and " + (list.size() - NODES_SHOWN) + " more" : shown;
        }

        private static String plain(BigDecimal value) {
            return value == null ? "0" : value.stripTrailingZeros().toPlainString();
        }
    }
}
