package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage.Alternative;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.ledger.governance.domain.Incident;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * MIG: a node's MIG layout being applied, failed, or not what its devices show. A {@code mig-reconfiguration}
 * incident whose evidence says the MIG manager reported {@code failed} is {@code MIG_FAILED}; one without is the
 * layout still being applied ({@code MIG_RECONFIGURATION}, or applied when it recovered); {@code mig-inconsistent} is
 * {@code MIG_INCONSISTENT}. The node's MIG state at the instant (layout, manager state, the ledger's verdict) is
 * the chain behind it.
 */
public final class MigBranch {

    /** How the evidence of a reconfiguration the MIG manager reported failed says so (NodeIncidents writes it). */
    static final String FAILED_NOTE = "; failed: nvidia.com/mig.config.state=failed at ";

    private MigBranch() {
    }

    public static String causeOf(Incident i) {
        if (FailureCause.MIG_INCONSISTENT.label().equals(i.cause())) {
            return FailureCause.MIG_INCONSISTENT.label();
        }
        return i.evidence() != null && i.evidence().contains(FAILED_NOTE) ? FailureCause.MIG_FAILED.label()
                : FailureCause.MIG_RECONFIGURATION.label();
    }

    public static Diagnosis diagnose(Incident i, Instant at, NodeStack stack, List<Alternative> prior, List<String> cards) {
        String cause = causeOf(i);
        FailureCause value = FailureCause.ofLabel(cause);
        String node = i.node();
        List<Evidence> evidence = new ArrayList<>();
        evidence.add(IncidentEvidence.of(i, at));
        List<String> checked = new ArrayList<>();
        if (stack != null && stack.migConfig() != null) {
            evidence.add(new Evidence(stack.at(), "gpu-stack", "node " + node + " at " + stack.at() + ": nvidia.com/mig.config="
                    + stack.migConfig() + ", nvidia.com/mig.config.state=" + stack.migState()
                    + (stack.migVerdict() == null ? "" : "; devices against the layout: " + stack.migVerdict()
                    + (stack.migReason() == null ? "" : " (" + stack.migReason() + ")")),
                    Commands.nodeLabel(node, "nvidia.com/mig.config.state")));
        } else {
            checked.add("node " + node + "'s MIG labels at " + (stack == null ? at : stack.at()) + " are not stored");
        }
        evidence.add(new Evidence(at, "node", "the MIG instances node " + node + " has now", Commands.migInstances(node)));
        List<Alternative> alternatives = new ArrayList<>(prior);
        String state = stack == null ? null : stack.migState();
        switch (value) {
            case MIG_FAILED -> alternatives.add(new Alternative(FailureCause.MIG_RECONFIGURATION.label(),
                    "the MIG manager reported failed at " + failedAt(i) + ": the layout is no longer being applied"));
            case MIG_INCONSISTENT -> alternatives.add(new Alternative(FailureCause.MIG_RECONFIGURATION.label(),
                    "the MIG manager was done" + (state == null ? "" : " (state " + state + ")")
                            + " and the devices still disagree with the layout after the grace"));
            default -> alternatives.add(new Alternative(FailureCause.MIG_FAILED.label(), "the MIG manager reported no"
                    + " failure" + (state == null ? "" : " (state " + state + ")")));
        }
        return new Diagnosis(Symptom.MIG, cause, value.rootCause(), Confidence.HIGH, i.startedAt(),
                node == null ? List.of() : List.of(node), cards, "NODE", i, evidence, alternatives, checked, List.of());
    }

    private static String failedAt(Incident i) {
        int at = i.evidence().indexOf(FAILED_NOTE);
        return i.evidence().substring(at + FAILED_NOTE.length()).split("[; ]", 2)[0];
    }
}
