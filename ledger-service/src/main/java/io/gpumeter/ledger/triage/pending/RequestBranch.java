package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.ledger.triage.domain.Commands;

/**
 * The branch of a wait the scheduler is not the last word on: the kubelet's refusal of a pod placed on a node
 * (TopologyAffinityError, UnexpectedAdmissionError), and a request no node can honour as written (HAMi's resources
 * sent to another scheduler, gpumem with gpumem-percentage, cores over 100), which the request check names.
 */
final class RequestBranch {

    private RequestBranch() {
    }

    static WaitDiagnosis kubelet(Findings f) {
        boolean topology = "TopologyAffinityError".equals(f.w.podReason());
        f.evidence.add(new Triage.Evidence(f.w.toldAt(), "pod-status", "status.reason " + f.w.podReason()
                + (f.w.podMessage() == null ? "" : ": " + f.w.podMessage())
                + (topology ? " (the kubelet's topology manager found no NUMA-aligned set of devices and CPUs)"
                : " (the kubelet could not get the devices the scheduler placed it on)"),
                Commands.describePod(f.w.namespace(), f.w.name())));
        f.alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(),
                "the scheduler placed it on a node: the kubelet refused it there"));
        f.checked.add("the pod's status reason as the kubelet wrote it");
        if (topology) {
            return f.decided(FailureCause.TOPOLOGY_AFFINITY, Confidence.HIGH, "NODE");
        }
        return f.decided(PendingReason.NO_DEVICE, Confidence.HIGH);
    }

    static WaitDiagnosis requestCheck(Findings f) {
        f.evidence.add(new Triage.Evidence(f.w.toldAt(), "pod-spec", f.w.message(),
                Commands.podSpec(f.w.namespace(), f.w.name(), "{.spec.schedulerName} {.spec.containers[*].resources}")));
        String anyNode = "no node can honour the request as written, whatever it holds";
        if (f.w.told() == PendingReason.WRONG_SCHEDULER) {
            f.alternatives.add(new Triage.Alternative(PendingReason.AFFINITY_OR_TAINT.label(), "spec.schedulerName '"
                    + f.w.scheduler() + "' does not place HAMi's resources on any node, whatever its labels and taints"));
        }
        f.alternatives.add(new Triage.Alternative(PendingReason.CLUSTER_FULL.label(), anyNode));
        f.checked.add("the pod's GPU request and scheduler");
        return f.decided(f.w.told(), Confidence.HIGH);
    }
}
