package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage.Alternative;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.ledger.governance.domain.ChangeKind;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.triage.domain.Leads.Lead;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * GPU_INVISIBLE: the container saw no GPU, or a driver too old for its CUDA. The container's own line decides which
 * ({@code gpu-invisible} or {@code cuda-driver-mismatch}); the node's driver, CUDA and device plugins at that instant
 * and the changes of its driver and stack before it are the chain behind it.
 */
public final class InvisibleBranch {

    static final Set<ChangeKind> STACK_CHANGES = Set.of(ChangeKind.DRIVER_VERSION, ChangeKind.CUDA_VERSION,
            ChangeKind.COMPONENT_VERSION, ChangeKind.COMPONENT_HEALTH, ChangeKind.GPU_ALLOCATABLE);

    private InvisibleBranch() {
    }

    public static Diagnosis diagnose(PodCase c, Lead lead, List<Lead> others) {
        Incident i = lead.incident();
        String node = i.node() != null ? i.node() : c.nodeAt(i.startedAt());
        List<Evidence> evidence = new ArrayList<>();
        evidence.add(IncidentEvidence.of(i, c.at()));
        List<String> checked = new ArrayList<>();
        NodeStack stack = c.extras().stack();
        if (stack != null) {
            evidence.add(StackFacts.offered(stack));
            evidence.addAll(StackFacts.unreadyPlugins(stack));
        } else {
            checked.add("node " + node + "'s GPU stack at " + i.startedAt() + " is not stored");
        }
        evidence.addAll(StackFacts.changes(c.extras().changes(), node, STACK_CHANGES, i.startedAt()));
        List<Alternative> alternatives = new ArrayList<>(FailedBranch.ruledOut(lead, others));
        boolean mismatch = FailureCause.CUDA_DRIVER_MISMATCH.label().equals(i.cause());
        if (mismatch) {
            alternatives.add(new Alternative(FailureCause.GPU_INVISIBLE.label(), "the CUDA runtime reached the driver and"
                    + " found it too old" + (stack != null && stack.driverVersion() != null ? " (" + stack.driverVersion() + ")" : "")
                    + ": the device was visible"));
        } else {
            alternatives.add(new Alternative(FailureCause.CUDA_DRIVER_MISMATCH.label(), "the container's line says no device"
                    + " or no driver, not a driver too old for its CUDA"));
        }
        return new Diagnosis(Symptom.GPU_INVISIBLE, i.cause(), i.rootCause(), Confidence.HIGH, i.startedAt(),
                node == null ? List.of() : List.of(node), c.cardsDuring(i.startedAt(), i.startedAt()), "POD", i, evidence,
                alternatives, checked, List.of());
    }
}
