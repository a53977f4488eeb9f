package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.ledger.triage.domain.Commands;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

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
 * What is left is the class of what was said, with what could not be read in {@code checked}. Each step is a branch
 * of its own ({@link RequestBranch}, {@link KueueBranch}, {@link VolcanoBranch}, {@link NodeBranch} and
 * {@link CapacityBranch}), writing what it finds into the walk's {@link Findings}.
 */
public final class PendingTree {

    /** The nodes named one by one in the evidence; the rest are counted. */
    static final int NODES_SHOWN = 5;

    /** Causes a scheduler's or Volcano's message names outright, which no node fact decides otherwise. */
    static final Set<PendingReason> SAID_OUTRIGHT = EnumSet.of(PendingReason.GANG, PendingReason.VOLCANO_QUEUE,
            PendingReason.QUOTA, PendingReason.FLAVOR, PendingReason.ADMISSION_CHECK, PendingReason.INACTIVE);

    private PendingTree() {
    }

    public static WaitDiagnosis diagnose(Waiting waiting, Fleet fleet) {
        Findings found = new Findings(waiting, fleet);
        if (waiting.podReason() != null && Waiting.KUBELET_REFUSALS.contains(waiting.podReason())) {
            return RequestBranch.kubelet(found);
        }
        if ("RequestCheck".equals(waiting.reason())) {
            return RequestBranch.requestCheck(found);
        }
        return switch (waiting.source()) {
            case KUEUE -> KueueBranch.kueue(found);
            case VOLCANO -> VolcanoBranch.volcano(found);
            case POD -> NodeBranch.pod(found);
        };
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
}
